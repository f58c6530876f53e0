/**
 * Manifests are UTF-8. A decoder that replaces bad bytes with U+FFFD would let a Latin-1 file
 * pass validation and reach the API with U+FFFD in its names, so bytes are decoded strictly and
 * the first bad byte is found for the error message.
 */

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * A file's text (a byte order mark kept, as yaml expects it), or where it stops being UTF-8: the
 * byte `offset` and value of the first bad byte, the text with U+FFFD for bad bytes (for showing
 * the line), and `at`, the index of that first U+FFFD in it.
 */
type DecodedText = { ok: true; text: string } | { ok: false; offset: number; byte: number; text: string; at: number };

/** The second byte's range for each lead byte that constrains it (Unicode table 3-7); others take 80..BF. */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** How many continuation bytes follow a lead byte, or undefined for a byte no character starts with. */
function continuations(lead: number): number | undefined {
  if (lead < 0x80) return 0;
  if (lead >= 0xc2 && lead <= 0xdf) return 1;
  if (lead >= 0xe0 && lead <= 0xef) return 2;
  if (lead >= 0xf0 && lead <= 0xf4) return 3;
  return undefined;
}

/**
 * The offset of the first byte that does not begin a well-formed UTF-8 sequence (a stray
 * continuation byte, an overlong form, a surrogate, a code point past U+10FFFF, a sequence cut
 * short), or undefined when all of `bytes` is UTF-8.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    const more = continuations(lead);
    if (more === undefined) return i;
    const [low, high] = secondByteRange(lead);
    for (let k = 1; k <= more; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += more + 1;
  }
  return undefined;
}

/** Decodes a manifest's bytes strictly as UTF-8. */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  try {
    return { ok: true, text: strict.decode(bytes) };
  } catch {
    const offset = firstInvalidUtf8(bytes) ?? 0;
    return { ok: false, offset, byte: bytes[offset] ?? 0, text: lenient.decode(bytes), at: lenient.decode(bytes.subarray(0, offset)).length };
  }
}
