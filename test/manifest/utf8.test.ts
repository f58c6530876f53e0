/**
 * Manifests are UTF-8: a file that is not is refused with the byte offset of its first bad byte,
 * rather than read with U+FFFD in place of its bytes and applied so.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostics } from '../../src/diag/format.js';
import { loadManifests } from '../../src/manifest/load.js';
import { decodeUtf8, firstInvalidUtf8 } from '../../src/manifest/utf8.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-utf8-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytes = (...parts: Array<string | number[]>): Uint8Array => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('firstInvalidUtf8', () => {
  it.each([
    ['valid text, with every length of character', bytes('a é € 🚀'), undefined],
    ['a lone continuation byte', bytes('ab', [0x80], 'c'), 2],
    ['a Latin-1 é', bytes('Caf', [0xe9], ' du'), 3],
    ['a sequence cut short by the end of the file', bytes('ok', [0xe2, 0x82]), 2],
    ['an overlong encoding of /', bytes('x', [0xc0, 0xaf]), 1],
    ['an overlong three-byte encoding', bytes([0xe0, 0x80, 0x80]), 0],
    ['an encoded surrogate', bytes('é', [0xed, 0xa0, 0x80]), 2],
    ['a code point past U+10FFFF', bytes([0xf4, 0x90, 0x80, 0x80]), 0],
    ['a byte that never occurs in UTF-8', bytes('🚀', [0xff]), 4],
  ])('finds %s', (_, input, offset) => {
    expect(firstInvalidUtf8(input)).toBe(offset);
  });
});

describe('decodeUtf8', () => {
  it('decodes UTF-8, keeping a byte order mark as yaml expects it', () => {
    expect(decodeUtf8(bytes([0xef, 0xbb, 0xbf], 'a: é\n'))).toEqual({ ok: true, text: '\ufeffa: é\n' });
  });

  it('gives the offset and value of the first bad byte and where it is in the text', () => {
    expect(decodeUtf8(bytes('a: 1\nb: "🚀', [0xff], '"\n'))).toEqual({ ok: false, offset: 13, byte: 0xff, text: 'a: 1\nb: "🚀\ufffd"\n', at: 11 });
  });
});

describe('loading a file that is not UTF-8', () => {
  it('reports invalid-utf8 at the file, line and column of the first bad byte, and checks nothing else', () => {
    const file = join(dir, 'latin1.yaml');
    writeFileSync(file, bytes('version: 1\nendpoint: local\naccount:\n  id: a\n  name: "Caf', [0xe9], ' ', [0xe9], '"\n  bogus: 1\n'));
    const result = loadManifests(file);
    expect(result.value).toBeUndefined();
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ code: 'invalid-utf8', range: { file, start: { line: 5, column: 13 } } });
    expect(result.diagnostics[0]?.message).toContain('byte 0xE9 at byte offset 56');
    expect(formatDiagnostics(result.diagnostics, result.sources).split('\n')[1]).toBe('  5 |   name: "Caf\ufffd \ufffd"');
  });

  it('still checks the other files', () => {
    const sub = mkdtempSync(join(dir, 'mixed-'));
    writeFileSync(join(sub, 'a.yaml'), bytes('version: 1\naccount: { id: a, name: "', [0xc3], '" }\n'));
    writeFileSync(join(sub, 'b.yaml'), 'version: 2\naccount: { id: b }\n');
    const result = loadManifests(sub);
    expect(result.diagnostics.map((d) => `${d.range?.file.slice(sub.length + 1)} ${d.code}`)).toEqual(['a.yaml invalid-utf8', 'b.yaml schema-const']);
  });
});
