/**
 * Deeply nested YAML is refused with one `yaml-too-deep` at the first map or list beyond the
 * nesting limit, however deep the document goes and whether the depth is written out or made by
 * aliases; loading never throws and nothing recursive runs on the deep part.
 */
import { describe, expect, it } from 'vitest';
import { formatDiagnostics } from '../../src/diag/format.js';
import { loadManifestSources } from '../../src/manifest/load.js';
import { NESTING_LIMIT } from '../../src/manifest/yaml-depth.js';

const HEAD = 'version: 1\nendpoint: local\naccount: { id: a, name: Deep }\n';

function load(text: string) {
  const result = loadManifestSources([{ file: 'm.yaml', text }]);
  return { ...result, output: formatDiagnostics(result.diagnostics, result.sources) };
}

/** `x-deep:` holding lists in lists, `levels` maps and lists deep counting the root map. */
const flowSeq = (levels: number): string => `${HEAD}x-deep: ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}\n`;
const flowMap = (levels: number): string => `${HEAD}x-deep: ${'{a: '.repeat(levels - 1)}1${'}'.repeat(levels - 1)}\n`;
const blockMap = (levels: number): string => `${HEAD}x-deep:\n${Array.from({ length: levels - 2 }, (_, i) => `${' '.repeat(i + 1)}k:\n`).join('')}${' '.repeat(levels - 1)}k: 1\n`;
const blockSeq = (levels: number): string => `${HEAD}x-deep:\n${Array.from({ length: levels - 1 }, (_, i) => `${'  '.repeat(i)}-`).join('\n')} 1\n`;
const SHAPES = { flowSeq, flowMap, blockMap, blockSeq };

describe('the nesting limit', () => {
  it('is well above what a manifest needs', () => {
    expect(NESTING_LIMIT).toBeGreaterThanOrEqual(32);
    expect(NESTING_LIMIT).toBeLessThanOrEqual(100);
  });

  it.each(Object.entries(SHAPES))('accepts %s nested exactly to the limit', (_, shape) => {
    expect(load(shape(NESTING_LIMIT)).output).toBe('');
  });

  it.each(Object.entries(SHAPES))('refuses %s one level deeper, at the first node beyond the limit', (_, shape) => {
    const text = shape(NESTING_LIMIT + 1);
    const { diagnostics, value } = load(text);
    expect(value).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toEqual(['yaml-too-deep']);
    expect(diagnostics[0]?.message).toContain(`more than ${NESTING_LIMIT} levels deep`);
    const offset = diagnostics[0]?.range?.start.offset ?? -1;
    expect(/^[[{\-k]/.test(text.slice(offset))).toBe(true);
  });

  it('points at the 65th opening bracket of a flow list', () => {
    const text = flowSeq(800);
    const [d] = load(text).diagnostics;
    expect(d?.range?.start).toEqual({ line: 4, column: 9 + NESTING_LIMIT - 1, offset: text.indexOf('[') + NESTING_LIMIT - 1 });
  });

  it('points at the key of the first block map too deep', () => {
    const [d] = load(blockMap(800)).diagnostics;
    expect(d?.range?.start.line).toBe(4 + NESTING_LIMIT);
    expect(d?.range?.start.column).toBe(NESTING_LIMIT + 1);
  });

  it.each([
    ['a flow list 20,000 deep', flowSeq(20_000)],
    ['a flow map 20,000 deep', flowMap(20_000)],
    ['a block map 3,000 deep', blockMap(3_000)],
    ['a block list 3,000 deep', blockSeq(3_000)],
    ['an unclosed flow list 20,000 deep', `${HEAD}x-deep: ${'['.repeat(20_000)}\n`],
  ])('reports %s once, without throwing or a stack overflow', (_, text) => {
    const { diagnostics, output } = load(text);
    expect(diagnostics.map((d) => d.code)).toEqual(['yaml-too-deep']);
    expect(output).not.toContain('call stack');
    expect(output.length).toBeLessThan(1_000);
  });

  it('counts the depth that aliases add, and reports it at the alias', () => {
    const lines = [HEAD, 'x-0: &l0 [end]\n'];
    for (let k = 1; k <= 2_000; k++) lines.push(`x-${k}: &l${k} [*l${k - 1}]\n`);
    const text = lines.join('');
    const { diagnostics } = load(text);
    expect(diagnostics.map((d) => d.code)).toEqual(['yaml-too-deep']);
    const alias = `*l${NESTING_LIMIT - 2}`;
    expect(diagnostics[0]?.message).toContain(`alias ${alias} `);
    const offset = diagnostics[0]?.range?.start.offset ?? -1;
    expect(text.slice(offset, offset + alias.length + 1)).toBe(`${alias}]`);
  });

  it('accepts aliases that stay within the limit', () => {
    const lines = [HEAD, 'x-0: &l0 [end]\n'];
    for (let k = 1; k <= NESTING_LIMIT - 3; k++) lines.push(`x-${k}: &l${k} [*l${k - 1}]\n`);
    expect(load(lines.join('')).output).toBe('');
  });

  it('counts maps merged with << at the level they are merged into', () => {
    const inner = `${'{a: '.repeat(NESTING_LIMIT - 2)}1${'}'.repeat(NESTING_LIMIT - 2)}`;
    const text = `${HEAD}x-defaults: &d { deep: ${inner} }\nx-merged:\n  <<: *d\n`;
    expect(load(text).output).toBe('');
  });
});
