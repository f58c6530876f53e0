/**
 * The import graph of the sources, and the three checks the layering test makes on it: imports
 * against the stage order, cycles between files, and exports nothing imports.
 *
 * The installed TypeScript (7, the native compiler) has no JavaScript compiler API
 * (`ts.createSourceFile`, `ts.preProcessFile`), so the sources are read by the small tokenizer
 * below. It knows what can hide an import: comments, string literals, template literals (with
 * nested `${…}`) and regular expression literals, told apart from a division by the token before
 * the slash. On top of the tokens it recognises import and export statements, dynamic `import('…')`
 * and `typeof import('…')`; every relative specifier is resolved to a file, a `.js` specifier to
 * its `.ts` source and a `dist/` path to `src/`.
 *
 * Everything here works on an in-memory map of files, so the checks run on small fixtures too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

// ---------------------------------------------------------------------------------------------
// Tokens

type TokenType = 'name' | 'string' | 'template' | 'number' | 'regex' | 'punct';

interface Token {
  type: TokenType;
  /** The identifier, the punctuator, or a string literal's value. */
  value: string;
  line: number;
}

/** Keywords after which a `/` starts a regular expression, not a division. */
const BEFORE_EXPRESSION = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else',
  'yield', 'await',
]);

const PUNCTUATORS = [
  '>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??=',
  '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '<<', '>>',
];

const isIdentStart = (c: string): boolean => /[A-Za-z_$\u0080-\uffff]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);

/** Splits TypeScript source into tokens, dropping comments and whitespace. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  /** For each open `{`: whether it opened a template substitution `${`. */
  const braces: boolean[] = [];

  const regexAllowed = (): boolean => {
    const prev = tokens[tokens.length - 1];
    if (prev === undefined) return true;
    if (prev.type === 'name') return BEFORE_EXPRESSION.has(prev.value);
    if (prev.type === 'punct') return prev.value !== ')' && prev.value !== ']' && prev.value !== '}';
    return false;
  };

  /** Reads a template literal's text from `i` (after the backtick or `}`) up to its end or `${`. */
  const readTemplate = (startLine: number): void => {
    while (i < text.length) {
      const c = text[i]!;
      if (c === '\\') {
        if (text[i + 1] === '\n') line++;
        i += 2;
      } else if (c === '`') {
        i++;
        tokens.push({ type: 'template', value: '', line: startLine });
        return;
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        braces.push(true);
        tokens.push({ type: 'template', value: '', line: startLine });
        tokens.push({ type: 'punct', value: '(', line }); // a substitution reads as a parenthesised expression
        return;
      } else {
        if (c === '\n') line++;
        i++;
      }
    }
    throw new Error(`unterminated template literal from line ${startLine}`);
  };

  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF' || c === '\u00A0' || c === '\u2028' || c === '\u2029') {
      i++;
    } else if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new Error(`unterminated comment from line ${line}`);
      for (let k = i; k < end; k++) if (text[k] === '\n') line++;
      i = end + 2;
    } else if (c === '"' || c === "'") {
      const startLine = line;
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length || text[i] === '\n') throw new Error(`unterminated string from line ${startLine}`);
        const d = text[i]!;
        if (d === c) break;
        if (d === '\\') {
          const e = text[i + 1];
          if (e === '\n') line++;
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e ?? '';
          i += 2;
        } else {
          value += d;
          i++;
        }
      }
      i++;
      tokens.push({ type: 'string', value, line: startLine });
    } else if (c === '`') {
      i++;
      readTemplate(line);
    } else if (c === '/' && regexAllowed()) {
      const startLine = line;
      let inClass = false;
      i++;
      for (;;) {
        if (i >= text.length || text[i] === '\n') throw new Error(`unterminated regular expression from line ${startLine}`);
        const d = text[i]!;
        if (d === '\\') i += 2;
        else {
          if (d === '[') inClass = true;
          else if (d === ']') inClass = false;
          else if (d === '/' && !inClass) break;
          i++;
        }
      }
      i++;
      while (i < text.length && isIdentPart(text[i]!)) i++; // flags
      tokens.push({ type: 'regex', value: '', line: startLine });
    } else if (isIdentStart(c) || c === '#' || (c === '\\' && next === 'u')) {
      const start = i;
      i++;
      while (i < text.length && (isIdentPart(text[i]!) || text[i] === '\\')) i++;
      tokens.push({ type: 'name', value: text.slice(start, i), line });
    } else if (/[0-9]/.test(c) || (c === '.' && next !== undefined && /[0-9]/.test(next))) {
      const start = i;
      i++;
      while (i < text.length && (/[0-9A-Za-z_.]/.test(text[i]!) || ((text[i] === '+' || text[i] === '-') && /[eE]/.test(text[i - 1]!) && !/^0[xX]/.test(text.slice(start, i))))) i++;
      tokens.push({ type: 'number', value: text.slice(start, i), line });
    } else if (c === '{') {
      braces.push(false);
      tokens.push({ type: 'punct', value: '{', line });
      i++;
    } else if (c === '}') {
      const template = braces.pop();
      i++;
      if (template === true) {
        tokens.push({ type: 'punct', value: ')', line });
        readTemplate(line);
      } else tokens.push({ type: 'punct', value: '}', line });
    } else {
      const p = PUNCTUATORS.find((q) => text.startsWith(q, i)) ?? c;
      tokens.push({ type: 'punct', value: p, line });
      i += p.length;
    }
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Imports and exports of one module

/** One module a file depends on, as written. */
export interface ModuleImport {
  specifier: string;
  line: number;
  /** `import type`, `export type … from`, an import whose every name is `type`, `typeof import(…)`. */
  typeOnly: boolean;
  /** A dynamic `import('…')`. */
  dynamic: boolean;
  /**
   * The names taken from the module: `'*'` for all of them (a namespace import, `export * as`, a
   * dynamic import whose names cannot be told), `'re-export-all'` for `export * from`.
   */
  names: string[] | '*' | 're-export-all';
  /** For `export { a as b } from`: the names this file exports in their place (b), aligned with names. */
  exportedAs?: string[];
}

/** One name a file declares and exports itself. */
export interface ModuleExport {
  name: string;
  line: number;
}

export interface ModuleInfo {
  imports: ModuleImport[];
  exports: ModuleExport[];
}

const DECLARATION_KEYWORDS = new Set(['function', 'class', 'interface', 'type', 'enum', 'namespace', 'module', 'const', 'let', 'var']);
const DECLARATION_MODIFIERS = new Set(['declare', 'async', 'abstract', 'default']);

/** The import and export statements of a module. */
export function scanModule(text: string): ModuleInfo {
  const t = tokenize(text);
  const imports: ModuleImport[] = [];
  const exports: ModuleExport[] = [];
  const at = (k: number): Token | undefined => t[k];
  const is = (k: number, value: string): boolean => {
    const token = t[k];
    return token !== undefined && (token.type === 'name' || token.type === 'punct') && token.value === value;
  };

  /** Reads `{ a, b as c, type d }` from k (at the brace); returns names, their aliases, whether all are types, and the end. */
  const readBraces = (k: number): { names: string[]; aliases: string[]; allTypes: boolean; end: number } => {
    const names: string[] = [];
    const aliases: string[] = [];
    let allTypes = true;
    k++;
    while (k < t.length && !is(k, '}')) {
      let typeOnly = false;
      if (is(k, 'type') && at(k + 1) !== undefined && !is(k + 1, ',') && !is(k + 1, '}') && !is(k + 1, 'as')) {
        typeOnly = true;
        k++;
      } else if (is(k, 'type') && is(k + 1, 'as') && at(k + 2)?.type === 'name' && !is(k + 3, ',') && !is(k + 3, '}')) {
        typeOnly = true; // `type as as x`, `type as x`: rare enough to read as a type
        k++;
      }
      const name = at(k)!.value;
      let alias = name;
      k++;
      if (is(k, 'as')) {
        alias = at(k + 1)!.value;
        k += 2;
      }
      names.push(name);
      aliases.push(alias);
      if (!typeOnly) allTypes = false;
      if (is(k, ',')) k++;
    }
    return { names, aliases, allTypes: allTypes && names.length > 0, end: k + 1 };
  };

  for (let k = 0; k < t.length; k++) {
    const token = t[k]!;
    if (token.type !== 'name') continue;
    const prev = at(k - 1);
    const memberAccess = prev !== undefined && prev.type === 'punct' && (prev.value === '.' || prev.value === '?.');
    if (memberAccess || is(k + 1, ':') || is(k + 1, '?')) continue; // a property named import or export

    if (token.value === 'import') {
      if (is(k + 1, '.')) continue; // import.meta
      if (is(k + 1, '(')) {
        const spec = at(k + 2);
        if (spec?.type !== 'string' || !is(k + 3, ')')) continue; // a method named import, or a computed specifier
        // `typeof import('x')`, and `import('x').Name` (a promise has no such property): a type
        const qualified = is(k + 4, '.') && at(k + 5)?.type === 'name' && !['then', 'catch', 'finally'].includes(at(k + 5)!.value);
        const typeOnly = qualified || (prev !== undefined && prev.type === 'name' && prev.value === 'typeof');
        imports.push({ specifier: spec.value, line: token.line, typeOnly, dynamic: true, names: dynamicNames(t, k) });
        continue;
      }
      // a static import statement
      let k2 = k + 1;
      let typeOnly = false;
      if (is(k2, 'type') && !is(k2 + 1, 'from') && !is(k2 + 1, ',')) {
        typeOnly = true;
        k2++;
      }
      if (at(k2)?.type === 'string') {
        imports.push({ specifier: at(k2)!.value, line: token.line, typeOnly, dynamic: false, names: [] });
        continue;
      }
      const names: string[] = [];
      let namespace = false;
      let braceAllTypes = true;
      let hadBraces = false;
      let hadDefault = false;
      while (k2 < t.length && !is(k2, 'from')) {
        if (is(k2, '{')) {
          const read = readBraces(k2);
          names.push(...read.names);
          braceAllTypes = read.allTypes;
          hadBraces = true;
          k2 = read.end;
        } else if (is(k2, '*')) {
          namespace = true;
          k2 += 3; // * as name
        } else if (is(k2, ',')) k2++;
        else if (at(k2)?.type === 'name') {
          names.push('default');
          hadDefault = true;
          k2++;
        } else break;
      }
      const spec = at(k2 + 1);
      if (!is(k2, 'from') || spec?.type !== 'string') continue; // `import x = require(…)` and the like
      const allTypes = typeOnly || (hadBraces && braceAllTypes && !hadDefault && !namespace);
      imports.push({ specifier: spec.value, line: token.line, typeOnly: allTypes, dynamic: false, names: namespace ? '*' : names });
      k = k2 + 1;
      continue;
    }

    if (token.value === 'export') {
      let k2 = k + 1;
      let typeOnly = false;
      if (is(k2, 'type') && (is(k2 + 1, '{') || is(k2 + 1, '*'))) {
        typeOnly = true;
        k2++;
      }
      if (is(k2, '*')) {
        // export * from 'x'; export * as ns from 'x'
        let exportedAs: string[] | undefined;
        if (is(k2 + 1, 'as')) {
          exportedAs = [at(k2 + 2)!.value];
          k2 += 2;
        }
        const spec = at(k2 + 2);
        if (!is(k2 + 1, 'from') || spec?.type !== 'string') continue;
        if (exportedAs !== undefined) {
          imports.push({ specifier: spec.value, line: token.line, typeOnly, dynamic: false, names: '*' });
          exports.push({ name: exportedAs[0]!, line: token.line });
        } else imports.push({ specifier: spec.value, line: token.line, typeOnly, dynamic: false, names: 're-export-all' });
        continue;
      }
      if (is(k2, '{')) {
        const read = readBraces(k2);
        const spec = at(read.end + 1);
        if (is(read.end, 'from') && spec?.type === 'string') {
          imports.push({
            specifier: spec.value,
            line: token.line,
            typeOnly: typeOnly || read.allTypes,
            dynamic: false,
            names: read.names,
            exportedAs: read.aliases,
          });
        } else for (const alias of read.aliases) exports.push({ name: alias, line: token.line });
        continue;
      }
      if (is(k2, 'default')) {
        exports.push({ name: 'default', line: token.line });
        continue;
      }
      if (is(k2, '=') || is(k2, 'as') || is(k2, 'import')) continue; // export = x; export as namespace x; export import a = b
      while (at(k2)?.type === 'name' && DECLARATION_MODIFIERS.has(at(k2)!.value)) k2++;
      if (is(k2, 'const') && is(k2 + 1, 'enum')) k2++;
      const keyword = at(k2);
      if (keyword === undefined || !DECLARATION_KEYWORDS.has(keyword.value)) continue;
      k2++;
      if (is(k2, '*')) k2++; // function*
      const name = at(k2);
      if (name?.type === 'name') exports.push({ name: name.value, line: token.line });
      else if (is(k2, '{') || is(k2, '[')) {
        // export const { a, b: c } = …: every name bound by the pattern
        const close = is(k2, '{') ? '}' : ']';
        let depth = 0;
        for (let j = k2; j < t.length; j++) {
          if (is(j, '{') || is(j, '[')) depth++;
          else if (is(j, '}') || is(j, ']')) {
            depth--;
            if (depth === 0 && is(j, close)) break;
          } else if (at(j)!.type === 'name' && !is(j + 1, ':') && !is(j - 1, '=') && !is(j, '...')) exports.push({ name: at(j)!.value, line: token.line });
        }
      }
    }
  }
  return { imports, exports };
}

/**
 * The names a dynamic import takes, when its use says them: `(await import('x')).a`,
 * `const { a, b: c } = await import('x')`, `import('x').A` in a type; otherwise all of them.
 */
function dynamicNames(t: Token[], k: number): string[] | '*' {
  const is = (j: number, value: string): boolean => t[j] !== undefined && t[j]!.type !== 'string' && t[j]!.value === value;
  // import ( 'x' ) . Name  — a type reference (or the promise's then, catch, finally)
  if (is(k + 4, '.') && t[k + 5]?.type === 'name') {
    const name = t[k + 5]!.value;
    return name === 'then' || name === 'catch' || name === 'finally' ? '*' : [name];
  }
  // ( await import ( 'x' ) ) . name
  if (is(k - 1, 'await') && is(k - 2, '(') && is(k + 4, ')') && is(k + 5, '.') && t[k + 6]?.type === 'name') return [t[k + 6]!.value];
  // const { a, b: c } = await import('x')
  if (is(k - 1, 'await') && is(k - 2, '=') && is(k - 3, '}')) {
    let j = k - 3;
    let depth = 0;
    const names: string[] = [];
    for (; j >= 0; j--) {
      if (is(j, '}')) depth++;
      else if (is(j, '{')) {
        depth--;
        if (depth === 0) break;
      } else if (depth === 1 && t[j]!.type === 'name' && (is(j - 1, '{') || is(j - 1, ',')) && !is(j - 1, '...')) names.push(t[j]!.value);
    }
    if (j >= 0 && names.length > 0) return names.reverse();
  }
  return '*';
}

// ---------------------------------------------------------------------------------------------
// The graph

/** A file's import resolved to a file of the graph. */
export interface Edge {
  from: string;
  to: string;
  line: number;
  typeOnly: boolean;
  dynamic: boolean;
  names: ModuleImport['names'];
  exportedAs?: string[];
}

export interface ImportGraph {
  /** Repository-relative paths (posix) of every file read, with what it declares. */
  modules: Map<string, ModuleInfo>;
  /** Every relative import that resolved to a file of the graph. */
  edges: Edge[];
  /** Relative imports that resolved to no file: `file:line specifier`. */
  unresolved: string[];
}

/**
 * The file a relative specifier names: a `.js` (`.mjs`, `.cjs`) specifier its `.ts` source, a path
 * into `dist/` the same path in `src/`. Bare specifiers (packages, `node:`) name no file.
 */
export function resolveSpecifier(from: string, specifier: string, exists: (path: string) => boolean): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  let path = posix.normalize(posix.join(posix.dirname(from), specifier));
  if (path.startsWith('dist/')) path = `src/${path.slice('dist/'.length)}`;
  const candidates = [path];
  for (const [js, ts] of [['.js', '.ts'], ['.mjs', '.mts'], ['.cjs', '.cts']] as const) {
    if (path.endsWith(js)) candidates.unshift(path.slice(0, -js.length) + ts);
  }
  if (!/\.[cm]?[jt]s$/.test(path)) candidates.push(`${path}.ts`, `${path}/index.ts`);
  return candidates.find(exists);
}

/** The import graph of the given files (path → source text). */
export function buildImportGraph(files: ReadonlyMap<string, string>): ImportGraph {
  const modules = new Map<string, ModuleInfo>();
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const [path, text] of files) {
    try {
      modules.set(path, scanModule(text));
    } catch (error) {
      throw new Error(`${path}: ${(error as Error).message}`);
    }
  }
  for (const [from, info] of modules) {
    for (const imp of info.imports) {
      if (!imp.specifier.startsWith('.')) continue;
      const to = resolveSpecifier(from, imp.specifier, (p) => files.has(p));
      if (to === undefined) {
        unresolved.push(`${from}:${imp.line} ${imp.specifier}`);
        continue;
      }
      edges.push({
        from,
        to,
        line: imp.line,
        typeOnly: imp.typeOnly,
        dynamic: imp.dynamic,
        names: imp.names,
        ...(imp.exportedAs === undefined ? {} : { exportedAs: imp.exportedAs }),
      });
    }
  }
  return { modules, edges, unresolved };
}

/** Source files under the given folders of a repository (`.ts`, `.mts`, `.js`, `.mjs`), path → text. */
export function readSources(root: string, folders: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (/\.(m?ts|m?js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        files.set(path, readFileSync(join(root, path), 'utf8'));
      }
    }
  };
  for (const folder of folders) walk(folder);
  return files;
}

// ---------------------------------------------------------------------------------------------
// Rule 1: the stage order

/**
 * One row of the stage table: the folders of `src/` at one tier. A folder imports only folders of
 * a lower tier (and itself); folders of one tier do not import each other.
 */
export interface StageRow {
  tier: number;
  folders: readonly string[];
  why: string;
}

/** An import the rules refuse that is allowed until the restructuring it waits for lands. */
export interface KnownException {
  from: string;
  to: string;
  why: string;
}

export interface Finding {
  file: string;
  line: number;
  rule: string;
  message: string;
}

export interface LayeringRules {
  stages: readonly StageRow[];
  /** The one folder nothing imports (the top of the table). */
  top: string;
  /** Folders that import nothing outside themselves; only `top` imports them. */
  isolated: readonly string[];
}

/** The folder of `src/` a file belongs to: the longest folder of the rules that holds it. */
export function unitOf(file: string, rules: LayeringRules): string | undefined {
  const folders = [...rules.stages.flatMap((s) => s.folders), ...rules.isolated].sort((a, b) => b.length - a.length);
  return folders.find((f) => file.startsWith(`src/${f}/`));
}

/** Imports between files of `src/` that break the stage order; known exceptions are left out and returned apart. */
export function checkLayering(
  graph: ImportGraph,
  rules: LayeringRules,
  exceptions: readonly KnownException[] = [],
): { violations: Finding[]; excused: Finding[]; staleExceptions: KnownException[] } {
  const tier = new Map<string, number>();
  for (const row of rules.stages) for (const folder of row.folders) tier.set(folder, row.tier);
  const violations: Finding[] = [];
  const excused: Finding[] = [];
  const used = new Set<KnownException>();
  for (const file of graph.modules.keys()) {
    if (file.startsWith('src/') && unitOf(file, rules) === undefined) {
      violations.push({ file, line: 1, rule: 'stage table', message: `${file} is in no folder of the stage table` });
    }
  }
  for (const edge of graph.edges) {
    if (!edge.from.startsWith('src/') || !edge.to.startsWith('src/')) continue;
    const from = unitOf(edge.from, rules);
    const to = unitOf(edge.to, rules);
    if (from === undefined || to === undefined || from === to) continue;
    let message: string | undefined;
    let rule = '';
    if (to === rules.top) {
      rule = `nothing imports ${rules.top}/`;
      message = `${from}/ imports ${rules.top}/`;
    } else if (rules.isolated.includes(from)) {
      rule = `${from}/ imports nothing outside itself`;
      message = `${from}/ imports ${to}/`;
    } else if (rules.isolated.includes(to) && from !== rules.top) {
      rule = `only ${rules.top}/ imports ${to}/`;
      message = `${from}/ imports ${to}/`;
    } else if (!rules.isolated.includes(to) && tier.get(to)! >= tier.get(from)!) {
      rule = 'a stage imports only the stages before it';
      message = tier.get(to) === tier.get(from)
        ? `${from}/ and ${to}/ sit at the same tier ${tier.get(from)} and do not import each other`
        : `${from}/ (tier ${tier.get(from)}) imports ${to}/ (tier ${tier.get(to)}), a later stage`;
    }
    if (message === undefined) continue;
    const finding: Finding = { file: edge.from, line: edge.line, rule, message: `${message}: ${edge.from}:${edge.line} → ${edge.to}` };
    const exception = exceptions.find((e) => e.from === edge.from && e.to === edge.to);
    if (exception === undefined) violations.push(finding);
    else {
      used.add(exception);
      excused.push(finding);
    }
  }
  return { violations, excused, staleExceptions: exceptions.filter((e) => !used.has(e)) };
}

// ---------------------------------------------------------------------------------------------
// Rule 2: no cycles

/** One import cycle: its files in order, the first repeated at the end, and the line of each import. */
export interface Cycle {
  files: string[];
  /** `file:line` of each import along the cycle. */
  imports: string[];
}

/**
 * The import cycles between files, type-only and dynamic imports included: one cycle through each
 * strongly connected component (Tarjan's algorithm, iterative), starting at its smallest path.
 */
export function findImportCycles(graph: ImportGraph, filter: (edge: Edge) => boolean = () => true): Cycle[] {
  const out = new Map<string, Edge[]>();
  for (const edge of graph.edges) {
    if (!filter(edge)) continue;
    const list = out.get(edge.from) ?? [];
    list.push(edge);
    out.set(edge.from, list);
  }
  const nodes = [...graph.modules.keys()].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = out.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!.to;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        for (;;) {
          const n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
          if (n === frame.node) break;
        }
        const selfLoop = component.length === 1 && edges.some((e) => e.to === frame.node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    // the shortest way from start back to itself, within the component (breadth first)
    const via = new Map<string, Edge>();
    const queue = [start];
    let closing: Edge | undefined;
    for (let q = 0; q < queue.length && closing === undefined; q++) {
      for (const edge of out.get(queue[q]!) ?? []) {
        if (!members.has(edge.to)) continue;
        if (edge.to === start) {
          closing = edge;
          break;
        }
        if (!via.has(edge.to)) {
          via.set(edge.to, edge);
          queue.push(edge.to);
        }
      }
    }
    const path: Edge[] = [closing!];
    while (path[0]!.from !== start) path.unshift(via.get(path[0]!.from)!);
    return { files: [start, ...path.map((e) => e.to)], imports: path.map((e) => `${e.from}:${e.line}`) };
  }).sort((a, b) => a.files[0]!.localeCompare(b.files[0]!));
}

/** Whether `to` can be reached from `from` along the edges the filter keeps (an edge to → from then closes a cycle). */
export function reaches(graph: ImportGraph, from: string, to: string, filter: (edge: Edge) => boolean = () => true): boolean {
  const seen = new Set([from]);
  const queue = [from];
  for (let q = 0; q < queue.length; q++) {
    for (const edge of graph.edges) {
      if (edge.from !== queue[q] || !filter(edge) || seen.has(edge.to)) continue;
      if (edge.to === to) return true;
      seen.add(edge.to);
      queue.push(edge.to);
    }
  }
  return from === to;
}

// ---------------------------------------------------------------------------------------------
// Rule 3: no dead exports

export interface DeadExportOptions {
  /** Files whose exports are used from outside the repository (the CLI's entry point). */
  roots: readonly string[];
  /** Files whose exports are not checked (generated from schemas). */
  exempt: (file: string) => boolean;
  /** Files whose exports are checked (`src/`). */
  checked: (file: string) => boolean;
}

/**
 * The exported names of the checked files that no file of the graph imports: `file:line name`.
 * A name counts as imported when a file imports it by name, through a namespace import (or a
 * dynamic import whose names cannot be told), or through a re-export of a file that imports it in
 * turn: `export { a } from` passes a use of a on, `export * from` passes on a use of any name the
 * re-exporting file does not declare itself.
 */
export function findDeadExports(graph: ImportGraph, options: DeadExportOptions): string[] {
  const own = new Map<string, Map<string, number>>();
  const namedReexports = new Map<string, Map<string, { to: string; name: string }>>();
  const starReexports = new Map<string, string[]>();
  for (const [file, info] of graph.modules) {
    own.set(file, new Map(info.exports.map((e) => [e.name, e.line])));
    namedReexports.set(file, new Map());
    starReexports.set(file, []);
  }
  for (const edge of graph.edges) {
    if (edge.names === 're-export-all') starReexports.get(edge.from)!.push(edge.to);
    else if (edge.exportedAs !== undefined && Array.isArray(edge.names)) {
      edge.names.forEach((name, i) => namedReexports.get(edge.from)!.set(edge.exportedAs![i]!, { to: edge.to, name }));
    }
  }
  const exportedNames = (file: string, seen = new Set<string>()): Set<string> => {
    const names = new Set<string>([...own.get(file)!.keys(), ...namedReexports.get(file)!.keys()]);
    if (seen.has(file)) return names;
    seen.add(file);
    for (const to of starReexports.get(file)!) for (const n of exportedNames(to, seen)) if (n !== 'default') names.add(n);
    return names;
  };
  const used = new Set<string>();
  const key = (file: string, name: string): string => `${file}\0${name}`;
  const use = (file: string, name: string, seen = new Set<string>()): void => {
    if (seen.has(file)) return;
    seen.add(file);
    if (own.get(file)!.has(name)) {
      used.add(key(file, name));
      return;
    }
    const named = namedReexports.get(file)!.get(name);
    if (named !== undefined) {
      used.add(key(file, name));
      use(named.to, named.name);
      return;
    }
    for (const to of starReexports.get(file)!) use(to, name, seen);
  };
  for (const edge of graph.edges) {
    if (edge.names === 're-export-all') continue;
    if (edge.names === '*') for (const name of exportedNames(edge.to)) use(edge.to, name);
    else if (edge.exportedAs === undefined) for (const name of edge.names) use(edge.to, name);
  }
  for (const root of options.roots) {
    if (graph.modules.has(root)) for (const name of exportedNames(root)) use(root, name);
  }
  const dead: string[] = [];
  for (const [file, info] of graph.modules) {
    if (!options.checked(file) || options.exempt(file)) continue;
    for (const e of info.exports) if (!used.has(key(file, e.name))) dead.push(`${file}:${e.line} ${e.name}`);
    for (const [name] of namedReexports.get(file)!) {
      if (!used.has(key(file, name))) dead.push(`${file}:${graph.edges.find((x) => x.from === file && x.exportedAs?.includes(name))!.line} ${name}`);
    }
  }
  return dead.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}
