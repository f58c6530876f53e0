/** Long output goes to stdout in pieces, so the text is never copied whole into one more buffer. */
import { describe, expect, it } from 'vitest';
import { writeInPieces } from '../../src/cli/io.js';

function written(text: string, piece: number): string[] {
  const pieces: string[] = [];
  writeInPieces({ write: (chunk: string | Uint8Array) => pieces.push(String(chunk)) > 0 }, text, piece);
  return pieces;
}

describe('writeInPieces', () => {
  it('writes a short text at once', () => {
    expect(written('Plan: 1 to add.\n', 64)).toEqual(['Plan: 1 to add.\n']);
  });

  it('writes a long text in pieces that add up to it', () => {
    const text = 'abcdefghij'.repeat(10);
    const pieces = written(text, 16);
    expect(pieces.join('')).toBe(text);
    expect(pieces.every((p) => p.length <= 16)).toBe(true);
    expect(pieces).toHaveLength(7);
  });

  it('never splits a surrogate pair between two pieces', () => {
    const text = `${'x'.repeat(15)}😀${'y'.repeat(20)}`;
    const pieces = written(text, 16);
    expect(pieces.join('')).toBe(text);
    expect(pieces[0]).toBe('x'.repeat(15));
    // no piece starts with a low surrogate or ends with a high one
    expect(pieces.some((p) => /^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(p))).toBe(false);
  });
});
