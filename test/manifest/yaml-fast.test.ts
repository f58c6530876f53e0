/**
 * The fast reader against yaml: for thousands of generated documents, in and out of the subset the
 * fast reader knows (anchors, tags, block scalars, bad indentation, multi-line values, duplicate
 * keys, interpolation, every kind of scalar), and for mutations of the golden manifests,
 * `parseManifestText` gives exactly what reading with yaml gives — the same nodes, values,
 * offsets and diagnostics. Seeds are fixed; a failure names its seed and prints the document.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readSimpleYaml, type TreeBuilder } from '../../src/manifest/yaml-fast.js';
import { parseManifestText, parseManifestTextWithYaml, type YNode } from '../../src/manifest/yaml-tree.js';
import { seededRandom } from '../support/member-files.js';

/** Keys and scalars the fast reader reads, and others it leaves to yaml (picked less often, so both are exercised). */
const KEYS = ['a', 'b', 'name', 'dup', 'dup', 'a b', '"q k"', "'s k'", '"dup"', '200', 'null', 'true', 'x.y', 'http://h', 'k_1', 'é', 'a:b'];
const ODD_KEYS = ['-k', '<<', '? k', '&k a', '[k]', 'a #b'];
const SCALARS = [
  '1', '-5', '+7', '007', '1.5', '.5', '1.', '1e3', '-2E-2', '1346184843436720128', 'true', 'False', 'TRUE', 'yes', '~', 'null', 'Null',
  'hello', 'hello world', 'a#b', 'a #c', 'x:y', 'http://a:b/c', 'v   ', '-x', '--x', 'a-b',
  '"dq"', '""', '"a b"', '"esc\\n\\t\\u00e9\\"x\\\\"', '"a" # c', "'it''s'", "''", '"# not a comment"', "'a: b'",
  '${env:REGION}', '${env:NOPE}', '"${env:REGION}"', 'pre-${env:REGION}', '${env:API_TOKEN}', '$${env:X}', '${oops}',
  '[1, 2]', '[a, "b", [c], {k: v}]', '{a: 1, b: [x]}', '{ "q":1 }', '{"q": 1, q: 2}', '{a: 1, a: 2}', '[ ]', '{}', '[1,]', '[a] # c', '[-1, -x]', '[x:y, "k"]', '[1.5, true, ~, "s"]', '{ k: "v", n: 2 }',
];
const ODD_SCALARS = [
  '0x1F', '0o17', '.inf', '-.Inf', '.nan', 'x: y', 'trailing:', '-', '- x', '?x', ':x', '@x', '`x', '%x', '&a v', '*a', '!tag v', '!!str 5', '|', '>', '|-\n  block',
  '"bad\\x41"', '"\\ud83d"', '"open', '"a" tail', '"a"#c', "'open", "'a'x",
  '[a: b]', '{a}', '{a: }', '[1,,2]', '[', '[a, b', '{a: [1}', '[a] x', '[-1, - ]', '{x:y: 1}', '[#]', '[a,\n  b]',
];

interface Gen {
  next: () => number;
  pick: <T>(items: readonly T[]) => T;
  chance: (p: number) => boolean;
}

function gen(seed: number): Gen {
  const next = seededRandom(seed);
  return { next, pick: (items) => items[Math.floor(next() * items.length)]!, chance: (p) => next() < p };
}

/** Lines between entries: nothing, blank lines, comments at some indentation. */
function filler(g: Gen, indent: string): string {
  if (!g.chance(0.1)) return '';
  return g.pick(['\n', `${indent}# note\n`, '# left\n', `\n${indent}  # deeper\n`, '   \n']);
}

function scalarLine(g: Gen): string {
  return g.pick(g.chance(0.03) ? ODD_SCALARS : SCALARS) + (g.chance(0.1) ? g.pick([' # c', '  #c', '#c', '   ']) : '');
}

function block(g: Gen, indent: string, depth: number): string {
  const seq = g.chance(0.3);
  const entries = 1 + Math.floor(g.next() * 4);
  let out = '';
  for (let i = 0; i < entries; i++) {
    out += filler(g, indent);
    const key = g.pick(g.chance(0.03) ? ODD_KEYS : KEYS);
    const head = seq ? `${indent}-${g.pick([' ', ' ', '   '])}` : `${indent}${key}${g.pick([': ', ': ', ': ', ':  ', ' : ', ':'])}`;
    const nested = depth < 4 && g.chance(0.35);
    if (nested) {
      const step = g.pick(['  ', '  ', '    ', ' ', '']);
      if (seq && g.chance(0.4)) {
        // a map that starts on the dash's line
        const inner = block(g, `${indent}  `, depth + 1).replace(/^\s+/, '');
        out += `${indent}- ${inner}`;
        continue;
      }
      out += `${head.trimEnd()}${g.chance(0.1) ? ' # c' : ''}\n${block(g, indent + step, depth + 1)}`;
    } else if (g.chance(0.08)) {
      out += `${head.trimEnd()}\n`;
    } else {
      out += `${head}${scalarLine(g)}\n`;
    }
    if (g.chance(0.01)) out += `${indent}  continued\n`;
  }
  return out;
}

function documentText(seed: number): string {
  const g = gen(seed);
  let text = g.chance(0.1) ? g.pick(['# head\n', '\n', '---\n', '%YAML 1.2\n---\n']) : '';
  text += block(g, g.chance(0.05) ? '  ' : '', 0);
  if (g.chance(0.1)) text += g.pick(['\n# tail\n', '\n\n', '\n# tail\n', '\n\n', '...\n', '---\nb: 1\n', '\ta: 1\n', 'x: 1\r\n']);
  if (g.chance(0.2)) text = text.replace(/\n$/, '');
  return text;
}

const ENV: Record<string, string> = { REGION: 'eu', X: 'x' };
const env = (name: string): string | undefined => ENV[name];

function comparable(result: ReturnType<typeof parseManifestText>): string {
  return JSON.stringify({ root: result.document.root, unreadable: result.document.unreadable, diagnostics: result.diagnostics }, (_, value: unknown) => (value instanceof Map ? [...value.keys()] : value));
}

const counting: TreeBuilder = {
  scalar: (value, raw, _plain, start, end) => ({ kind: 'scalar', value, raw, start, end }),
  addEntry: (map, key, keyStart, keyEnd, value: YNode) => void map.entries.push({ key, keyStart, keyEnd, value }),
};

describe('the fast YAML reader', () => {
  it('reads 3,000 generated documents exactly as yaml does, or leaves them to yaml', () => {
    let fast = 0;
    const seeds = 3000;
    for (let seed = 1; seed <= seeds; seed++) {
      const text = documentText(seed);
      const expected = comparable(parseManifestTextWithYaml('gen.yaml', text, env));
      const actual = comparable(parseManifestText('gen.yaml', text, env));
      if (actual !== expected) throw new Error(`seed ${seed}: the fast reader differs from yaml on:\n${text}\nfast: ${actual}\nyaml: ${expected}`);
      if (readSimpleYaml(text, counting) !== undefined) fast++;
    }
    // the generator must exercise the fast reader, not only the fallback
    expect(fast, `${fast} of ${seeds} read by the fast reader`).toBeGreaterThan(seeds / 4);
  });

  const cases: Array<{ name: string; text: string; fast: boolean }> = [
    { name: 'a manifest of the usual shape', text: 'version: 1\naccount: { id: 18ce54d4x5t }\ncampaigns:\n  c0:\n    name: "Spring # 1"\n    line_items:\n      l0:\n        placements: [ALL_ON_SERVICE]\n        targeting:\n          - { targeting_type: BROAD_KEYWORD, targeting_value: "keyword 0" }\n', fast: true },
    { name: 'a list at its key\'s indentation', text: 'a:\n- 1\n- 2\nb: 2\n', fast: true },
    { name: 'comments and blank lines between entries', text: '# head\na: 1 # one\n\n  # indented\nb:\n  c: 2\n\n# tail\n', fast: true },
    { name: 'anchors and aliases', text: 'a: &x 1\nb: *x\n', fast: false },
    { name: 'a block scalar', text: 'a: |\n  text\n', fast: false },
    { name: 'a plain scalar over two lines', text: 'a: one\n  two\n', fast: false },
    { name: 'a flow list over two lines', text: 'a: [1,\n  2]\n', fast: false },
    { name: 'an empty value before a comment', text: 'a:\n# c\nb: 1\n', fast: false },
    { name: 'tabs', text: 'a:\n\tb: 1\n', fast: false },
    { name: 'a merge key', text: 'a: {x: 1}\nb:\n  <<: {x: 2}\n', fast: false },
    { name: 'a document marker', text: '---\na: 1\n', fast: false },
    { name: 'malformed indentation', text: 'a:\n    b: 1\n  c: 2\n', fast: false },
  ];
  it.each(cases)('$name: read by the fast reader: $fast, and as yaml reads it', ({ text, fast }) => {
    expect(readSimpleYaml(text, counting) !== undefined).toBe(fast);
    expect(comparable(parseManifestText('case.yaml', text, env))).toBe(comparable(parseManifestTextWithYaml('case.yaml', text, env)));
  });

  it('reads 800 mutations of the golden manifests exactly as yaml does (a few characters inserted, deleted or replaced)', () => {
    const root = new URL('../golden/', import.meta.url);
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml')).sort();
    const texts = files.map((f) => readFileSync(new URL(f, root), 'utf8'));
    expect(texts.length).toBeGreaterThan(20);
    const SIGNIFICANT = [' ', '\n', ':', '-', '#', '"', "'", '[', ']', '{', '}', ',', 'a', '1', '\\', '\n  ', ': ', '- ', '~', '&', '*', '!', '|', '>', '?', '%', '.', 'é'];
    for (let seed = 1; seed <= 800; seed++) {
      const g = gen(seed);
      let text = g.pick(texts);
      for (let edits = 1 + Math.floor(g.next() * 3); edits > 0; edits--) {
        const at = Math.floor(g.next() * text.length);
        const how = g.next();
        if (how < 0.4) text = text.slice(0, at) + g.pick(SIGNIFICANT) + text.slice(at);
        else if (how < 0.8) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(g.next() * 3));
        else text = text.slice(0, at) + g.pick(SIGNIFICANT) + text.slice(at + 1);
      }
      const expected = comparable(parseManifestTextWithYaml('mutated.yaml', text, env));
      const actual = comparable(parseManifestText('mutated.yaml', text, env));
      if (actual !== expected) throw new Error(`seed ${seed}: the fast reader differs from yaml on:\n${text}\nfast: ${actual}\nyaml: ${expected}`);
    }
  });

  it('reads every manifest of the repository as yaml does', () => {
    const files = ['examples/quickstart/account.yaml', 'examples/outdoor-retailer/acme-outdoor.yaml'];
    for (const file of files) {
      const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      expect(comparable(parseManifestText(file, text, env))).toBe(comparable(parseManifestTextWithYaml(file, text, env)));
    }
  });
});
