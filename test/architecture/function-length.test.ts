/**
 * No function of `src/` is longer than 150 lines (docs/architecture.md, "The engine apart from the
 * commands"): a function that long holds several steps that each deserve a name. Every function
 * counts — declarations, expressions, arrows, methods, accessors — each measured from its first
 * line to its last, nested functions inside it included. Files under a `generated/` folder are
 * written by scripts/ and left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';

/** The most lines a function may span. */
const MAX_LINES = 150;

/** A function of a file: where it starts, how many lines it spans and what it is called. */
interface FunctionSpan {
  line: number;
  lines: number;
  name: string;
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** The name a function is known by: its own, or that of the variable, property or method that holds it. */
function nameOf(node: Node, holder: Node | undefined): string {
  const id = node['id'];
  if (isNode(id) && typeof id['name'] === 'string') return id['name'];
  const key = holder?.['key'] ?? (holder?.type === 'VariableDeclarator' ? holder['id'] : undefined);
  if (isNode(key)) return typeof key['name'] === 'string' ? key['name'] : typeof key['value'] === 'string' ? key['value'] : '(computed)';
  return '(anonymous)';
}

/** Every function of a TypeScript module's text, in source order. */
function functionSpans(text: string): FunctionSpan[] {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const spans: FunctionSpan[] = [];
  const visit = (node: Node, holder: Node | undefined): void => {
    if (FUNCTIONS.has(node.type)) {
      // a method's span starts at its key, not at the parameters the function node starts at
      const start = holder !== undefined && (holder.type === 'MethodDefinition' || holder.type === 'Property') && holder['value'] === node ? holder.start : node.start;
      const line = lineOf(start);
      spans.push({ line, lines: lineOf(Math.max(node.end - 1, start)) - line + 1, name: nameOf(node, holder) });
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const child of value) isNode(child) && visit(child, node);
      else if (isNode(value)) visit(value, node);
    }
  };
  visit(parseAst(text, { lang: 'ts', sourceType: 'module' }) as unknown as Node, undefined);
  return spans.sort((a, b) => a.line - b.line);
}

/** `file:line name (N lines)` for every function of `files` (path → text) longer than `MAX_LINES`. */
function tooLong(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    for (const span of functionSpans(text)) if (span.lines > MAX_LINES) out.push(`${file}:${span.line} ${span.name} (${span.lines} lines, at most ${MAX_LINES})`);
  }
  return out;
}

/** The `.ts` files under `src/`, outside `generated/` folders, path → text. */
function sources(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'generated') walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.set(path, readFileSync(join(root, path), 'utf8'));
    }
  };
  walk('src');
  return files;
}

describe('the length of functions', () => {
  it(`holds on src/: no function is longer than ${MAX_LINES} lines`, () => {
    const files = sources(process.cwd());
    expect(files.size).toBeGreaterThan(300);
    expect(tooLong(files)).toEqual([]);
  });

  /** A body of `n` lines of statements. */
  const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const rows: Array<{ name: string; text: string; found: string[] }> = [
    { name: 'a declaration at the limit', text: `export function fits() {\n${body(MAX_LINES - 2)}\n}\n`, found: [] },
    { name: 'a declaration one line over', text: `export function long() {\n${body(MAX_LINES - 1)}\n}\n`, found: [`f.ts:1 long (${MAX_LINES + 1} lines, at most ${MAX_LINES})`] },
    { name: 'an arrow held by a variable', text: `// a comment\nexport const arrow = async (a: number): Promise<void> => {\n${body(MAX_LINES)}\n};\n`, found: [`f.ts:2 arrow (${MAX_LINES + 2} lines, at most ${MAX_LINES})`] },
    { name: 'a function expression passed as an argument', text: `run(function () {\n${body(MAX_LINES)}\n});\n`, found: [`f.ts:1 (anonymous) (${MAX_LINES + 2} lines, at most ${MAX_LINES})`] },
    {
      name: 'a method, and a long function nested in a short one',
      text: `class C {\n  private method(x: string): void {\n${body(MAX_LINES)}\n  }\n}\nfunction outer() {\n  const inner = () => {\n${body(MAX_LINES)}\n  };\n  return inner;\n}\nexport { C, outer };\n`,
      found: [
        `f.ts:2 method (${MAX_LINES + 2} lines, at most ${MAX_LINES})`,
        `f.ts:${MAX_LINES + 5} outer (${MAX_LINES + 5} lines, at most ${MAX_LINES})`,
        `f.ts:${MAX_LINES + 6} inner (${MAX_LINES + 2} lines, at most ${MAX_LINES})`,
      ],
    },
    { name: 'an object method', text: `export const o = {\n  'quoted'(): number {\n${body(MAX_LINES)}\n    return 1;\n  },\n};\n`, found: [`f.ts:2 quoted (${MAX_LINES + 3} lines, at most ${MAX_LINES})`] },
  ];
  it.each(rows)('$name', ({ text, found }) => {
    expect(tooLong(new Map([['f.ts', text]]))).toEqual(found);
  });
});
