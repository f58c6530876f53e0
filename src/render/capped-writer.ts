/**
 * Writes nested sections of text under a hard size limit, for pull-request comments (GitHub
 * refuses comments over 65,536 characters, pain point 3). The content is a flat list of pieces:
 * `open` a section (with the text that closes it), `block` of content, `close`. Blocks are kept
 * in order while they fit with every open section closed and room left for the closing note;
 * from the first block that does not fit on, the rest is left out and counted by category. A
 * section left with no block is dropped whole, so no empty `<details>` remains.
 */

/** One piece of capped content. */
export type Piece =
  | { type: 'open'; text: string; close: string }
  | { type: 'block'; text: string; category: string }
  | { type: 'close' };

/** What the writer kept and what it left out. */
interface CappedText {
  text: string;
  /** Blocks left out, by category (only categories with some left out). */
  leftOut: Record<string, number>;
}

interface Open {
  close: string;
  start: number;
  blocks: number;
}

/**
 * Appends `pieces` to `head` (always kept) while the result, with `reserve` characters to spare,
 * stays under `limit` characters. Every `open` must have its `close`.
 */
export function writeCapped(head: string, pieces: readonly Piece[], limit: number, reserve: number): CappedText {
  let text = head;
  const stack: Open[] = [];
  const leftOut: Record<string, number> = {};
  let cut = false;
  let skipped = 0;
  const closing = (): number => stack.reduce((n, o) => n + o.close.length, 0);
  const fits = (extra: number): boolean => text.length + extra + closing() + reserve < limit;
  for (const piece of pieces) {
    if (piece.type === 'block') {
      if (!cut && fits(piece.text.length)) {
        text += piece.text;
        for (const open of stack) open.blocks += 1;
      } else {
        cut = true;
        leftOut[piece.category] = (leftOut[piece.category] ?? 0) + 1;
      }
    } else if (piece.type === 'open') {
      if (cut || !fits(piece.text.length + piece.close.length)) {
        cut = true;
        skipped += 1;
      } else {
        stack.push({ close: piece.close, start: text.length, blocks: 0 });
        text += piece.text;
      }
    } else if (skipped > 0) {
      skipped -= 1;
    } else {
      const open = stack.pop();
      if (open === undefined) throw new Error('close without open');
      text = open.blocks === 0 ? text.slice(0, open.start) : text + open.close;
    }
  }
  if (stack.length > 0 || skipped > 0) throw new Error('open without close');
  return { text, leftOut };
}
