import { describe, expect, it } from 'vitest';
import { plainValue } from '../../src/manifest/nodes.js';
import { parseManifestText, type YMap, type YNode } from '../../src/manifest/yaml-tree.js';

const noEnv = (): undefined => undefined;

function parse(text: string, env: (name: string) => string | undefined = noEnv) {
  const { document, diagnostics } = parseManifestText('m.yaml', text, env);
  return { document, diagnostics, value: document.root === undefined ? undefined : plainValue(document.root), codes: diagnostics.map((d) => d.code) };
}

const entry = (node: YNode | undefined, key: string): YNode | undefined => (node as YMap | undefined)?.byKey.get(key)?.value;

describe('parseManifestText', () => {
  it('keeps the position of every key and value', () => {
    const { document } = parse('campaigns:\n  summer:\n    name: "Summer"\n');
    const summer = (entry(document.root, 'campaigns') as YMap).byKey.get('summer');
    expect(document.range(summer?.keyStart ?? -1, summer?.keyEnd ?? -1).start).toEqual({ line: 2, column: 3, offset: 13 });
    const name = entry(summer?.value, 'name');
    expect(document.range(name?.start ?? -1, name?.end ?? -1)).toMatchObject({ start: { line: 3, column: 11 }, end: { line: 3, column: 19 } });
  });

  it('expands anchors, aliases and merge keys, explicit keys winning over merged ones', () => {
    const { value, codes } = parse('base: &b { a: 1, b: 2 }\nmore: &m { c: 3, a: 9 }\nx:\n  b: 20\n  <<: [*b, *m]\n  d: 4\ny: *b\n');
    expect(codes).toEqual([]);
    expect(value).toEqual({ base: { a: 1, b: 2 }, more: { c: 3, a: 9 }, x: { b: 20, a: 1, c: 3, d: 4 }, y: { a: 1, b: 2 } });
  });

  it('points aliased values at their anchor', () => {
    const { document } = parse('a: &x hello\nb: *x\n');
    const b = entry(document.root, 'b');
    expect(document.range(b?.start ?? -1, b?.end ?? -1).start.line).toBe(1);
  });

  it('keeps the digits of unquoted numbers as written', () => {
    const { document } = parse('id: 1346184843436720128\nbudget: 0.10\n');
    const id = entry(document.root, 'id');
    expect(id?.kind === 'scalar' && id.raw).toBe('1346184843436720128');
    const budget = entry(document.root, 'budget');
    expect(budget?.kind === 'scalar' && budget.raw).toBe('0.10');
  });

  it('reports duplicate keys at the second key, pointing at the first', () => {
    const { diagnostics } = parse('a: 1\nb: 2\na: 3\n');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'duplicate-key', range: { start: { line: 3, column: 1 } }, related: [{ range: { start: { line: 1, column: 1 } } }] });
  });

  it('reports unknown anchors, alias cycles and bad merges without throwing', () => {
    expect(parse('a: *nope\n').codes).toEqual(['yaml-alias']);
    expect(parse('a: &a [1, *a]\n').codes).toEqual(['yaml-alias-cycle']);
    expect(parse('a: &a { b: *a }\n').codes).toEqual(['yaml-alias-cycle']);
    expect(parse('a: &s hello\nb:\n  <<: *s\n').codes).toEqual(['yaml-merge']);
    expect(parse('b:\n  <<: *nope\n  c: 1\n').codes).toEqual(['yaml-alias']);
  });

  it('refuses alias bombs once, and stops checking the file', () => {
    let text = 'a: &a [x, x, x, x, x, x, x, x, x, x]\n';
    for (const [name, prev] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd'], ['f', 'e'], ['g', 'f']]) text += `${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]\n`;
    const { codes, document } = parse(text);
    expect(codes).toEqual(['yaml-alias-expansion']);
    expect(document.unreadable).toBe(true);
  });

  it('reports syntax errors, second documents, complex keys, unknown tags and empty files', () => {
    expect(parse('a: "open\n').codes).toEqual(['yaml-syntax']);
    expect(parse('a: 1\n---\nb: 2\n').codes).toEqual(['multiple-documents']);
    expect(parse('? [a, b]\n: 1\n').codes).toEqual(['yaml-key']);
    expect(parse('a: !custom 1\n').codes).toEqual(['yaml-tag']);
    expect(parse('a: !!binary aGVsbG8=\n').codes).toEqual(['yaml-tag']);
    expect(parse('# only a comment\n').codes).toEqual(['empty-manifest']);
    expect(parse('').codes).toEqual(['empty-manifest']);
  });

  it('reads keys as text and keeps YAML 1.2 core types (no Norway problem)', () => {
    expect(parse('1: a\ntrue: b\nnull: c\ncountry: NO\non: yes\n').value).toEqual({ 1: 'a', true: 'b', null: 'c', country: 'NO', on: 'yes' });
  });

  it('reads files with a byte order mark and CRLF line ends', () => {
    const { value, document } = parse('\uFEFFa: 1\r\nb:\r\n  c: x\r\n');
    expect(value).toEqual({ a: 1, b: { c: 'x' } });
    const c = entry(entry(document.root, 'b'), 'c');
    expect(document.range(c?.start ?? -1, c?.end ?? -1).start).toMatchObject({ line: 3, column: 6 });
  });

  it('treats __proto__ as an ordinary key', () => {
    const value = parse('__proto__: { polluted: true }\n').value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('interpolates ${env:NAME}; an unquoted whole interpolation takes its YAML type', () => {
    const env = (name: string): string | undefined => ({ N: '3', B: 'true', S: 'text', D: '50.10' })[name];
    const { value, document } = parse('n: ${env:N}\nq: "${env:N}"\nb: ${env:B}\ns: pre-${env:S}\nd: ${env:D}\n', env);
    expect(value).toEqual({ n: 3, q: '3', b: true, s: 'pre-text', d: 50.1 });
    const d = entry(document.root, 'd');
    expect(d?.kind === 'scalar' && d.raw).toBe('50.10');
  });

  it('reports interpolation problems at the value', () => {
    const { diagnostics } = parse('a: x\nb: ${env:MISSING}\n');
    expect(diagnostics).toMatchObject([{ code: 'env-unset', range: { start: { line: 2, column: 4 } } }]);
  });
});
