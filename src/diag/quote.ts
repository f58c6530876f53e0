/**
 * Bounded quoting of user values in messages. A manifest can hold a value of any size (a 10 MB
 * name, a key of a million characters); a message quotes at most a short prefix of it, so the
 * output of a hostile file stays small and still shows which value is meant.
 */

/** How many characters of a value a message quotes by default. */
export const QUOTE_LIMIT = 60;

/** The mark put where text was cut. */
export const CUT_MARK = '…';

/** Where to cut `text` to keep at most `keep` UTF-16 units without splitting a surrogate pair. */
function cutPoint(text: string, keep: number): number {
  const code = text.charCodeAt(keep - 1);
  return keep > 0 && code >= 0xd800 && code <= 0xdbff ? keep - 1 : keep;
}

/**
 * `text` when it has at most `limit` characters, else its first `limit - 1` characters and `…`
 * (exactly `limit` characters in all). For messages and other free text that may hold user input.
 */
export function clipText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, cutPoint(text, Math.max(0, limit - 1)))}${CUT_MARK}`;
}

/**
 * `value` as a JSON string for a message (`"mian"`), cut to at most `limit` characters of the
 * value with `…` inside the quotes where it was cut. Every message that quotes a user's value,
 * key or name uses this rather than `JSON.stringify`.
 */
export function quoteValue(value: string, limit: number = QUOTE_LIMIT): string {
  if (value.length <= limit) return JSON.stringify(value);
  const shown = JSON.stringify(value.slice(0, cutPoint(value, Math.max(0, limit - 1))));
  return `${shown.slice(0, -1)}${CUT_MARK}"`;
}
