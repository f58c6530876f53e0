/**
 * `Utf8Text`: bytes of a member file, chunk by chunk, to text — refusing what is not UTF-8 rather
 * than reading it with U+FFFD in place of each bad byte, which would hash to identifiers nobody
 * has (a Latin-1 export, say). A sequence split across chunks is carried to the next one. The
 * first bad byte is reported by its offset and line, never by its value.
 */
import { isUtf8 } from 'node:buffer';

/** Where the text stops being UTF-8: the byte's offset in the file (0-based) and its line (1-based). */
export interface NotUtf8 {
  offset: number;
  line: number;
}

/** Bytes of a sequence begun at the end of `bytes` and not yet complete (0 to 3). */
function incompleteTail(bytes: Buffer): number {
  for (let k = 1; k <= Math.min(3, bytes.length); k++) {
    const c = bytes[bytes.length - k]!;
    if (c < 0x80) return 0;
    if (c >= 0xc0) return (c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2) > k ? k : 0;
  }
  return 0;
}

/** The index of the first byte of `bytes` that does not belong to a well-formed UTF-8 sequence (RFC 3629), or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (n === 0 || i + n >= bytes.length) return i;
    const second = bytes[i + 1]!;
    const [low, high] = c === 0xe0 ? [0xa0, 0xbf] : c === 0xed ? [0x80, 0x9f] : c === 0xf0 ? [0x90, 0xbf] : c === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    if (second < low || second > high) return i;
    for (let k = 2; k <= n; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return -1;
}

/** Lines begun before `end` in `bytes`: the LF bytes counted. */
function newlines(bytes: Buffer, end = bytes.length): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i >= 0 && i < end; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

/** Decodes a file's chunks as UTF-8, strictly. */
export class Utf8Text {
  private carry: Buffer = Buffer.alloc(0);
  private consumed = 0;
  private lines = 1;

  /** The text of `chunk` (and any sequence carried from the chunk before), or where it is not UTF-8. */
  push(chunk: Buffer): string | NotUtf8 {
    const bytes = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    const cut = bytes.length - incompleteTail(bytes);
    const body = bytes.subarray(0, cut);
    if (!isUtf8(body)) return this.bad(body, firstInvalidUtf8(body));
    this.carry = Buffer.from(bytes.subarray(cut));
    this.consumed += cut;
    this.lines += newlines(body);
    return body.toString('utf8');
  }

  /** The end of the file: a sequence left unfinished is not UTF-8. */
  end(): NotUtf8 | undefined {
    return this.carry.length === 0 ? undefined : { offset: this.consumed, line: this.lines };
  }

  private bad(body: Buffer, at: number): NotUtf8 {
    return { offset: this.consumed + at, line: this.lines + newlines(body, at) };
  }
}
