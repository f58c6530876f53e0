/**
 * Ways to damage what a killed apply left in the state directory, drawn from a seeded generator so
 * that a failing trial is found again from its seed: a byte of the journal changed, the journal
 * cut short at any byte, a line deleted or moved, the journal emptied or deleted, the checkpoint
 * deleted or put back at an older version the run wrote; and, as a control, a torn write (part of
 * a line with no newline) appended, which is the one damage a kill itself leaves.
 */
import { seededRandom } from '../support/member-files.js';

/** What a killed apply left: the checkpoint's text, the journal's, and every checkpoint written before. */
export interface Remains {
  checkpoint: string;
  journal: Buffer;
  older: readonly string[];
}

/** A damaged copy: `checkpoint` or `journal` undefined means the file is deleted. */
export interface Mutation {
  /** The kind of damage, to count trials by. */
  kind: string;
  /** The damage itself, to find a trial again. */
  name: string;
  checkpoint: string | undefined;
  journal: Buffer | undefined;
}

/** The seeded generator of the test support (mulberry32): the same seed gives the same trials. */
export const seeded = seededRandom;

const below = (random: () => number, n: number): number => Math.floor(random() * n);

/** The journal's lines, each with its newline (the last without, when it has none). */
function linesOf(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x0a) continue;
    lines.push(bytes.subarray(start, i + 1));
    start = i + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

type Draw = (remains: Remains, random: () => number) => Mutation;

const journalOnly = (remains: Remains, kind: string, name: string, journal: Buffer | undefined): Mutation => ({ kind, name, checkpoint: remains.checkpoint, journal });

const DRAWS: Draw[] = [
  (r, random) => {
    const bytes = Buffer.from(r.journal);
    const at = below(random, bytes.length);
    const xor = 1 + below(random, 255);
    bytes[at] = bytes[at]! ^ xor;
    return journalOnly(r, 'byte changed', `byte ${at} of the journal xor ${xor}`, bytes);
  },
  (r, random) => {
    const at = below(random, r.journal.length);
    return journalOnly(r, 'journal cut short', `journal cut to ${at} of ${r.journal.length} bytes`, r.journal.subarray(0, at));
  },
  (r, random) => {
    const lines = linesOf(r.journal);
    const at = below(random, lines.length);
    return journalOnly(r, 'line deleted', `line ${at + 1} of ${lines.length} of the journal deleted`, Buffer.concat(lines.filter((_, i) => i !== at)));
  },
  (r, random) => {
    const lines = linesOf(r.journal);
    const from = below(random, lines.length);
    const to = below(random, lines.length);
    const moved = [...lines];
    const [line] = moved.splice(from, 1);
    moved.splice(to, 0, line!);
    return journalOnly(r, 'line moved', `line ${from + 1} of the journal moved to ${to + 1}`, Buffer.concat(moved));
  },
  (r, random) => {
    const lines = linesOf(r.journal);
    const model = lines[below(random, lines.length)]!;
    const torn = model.subarray(0, 1 + below(random, model.length - 1));
    return journalOnly(r, 'torn write appended', `${torn.length} bytes of a line appended with no newline`, Buffer.concat([r.journal, torn]));
  },
  (r) => journalOnly(r, 'journal emptied', 'journal emptied', Buffer.alloc(0)),
  (r) => journalOnly(r, 'journal deleted', 'journal deleted', undefined),
  (r) => ({ kind: 'checkpoint deleted', name: 'checkpoint deleted', checkpoint: undefined, journal: r.journal }),
  (r, random) => {
    const at = below(random, r.older.length);
    return { kind: 'checkpoint older', name: `checkpoint put back at version ${at + 1} of ${r.older.length}`, checkpoint: r.older[at], journal: r.journal };
  },
];

/** One damaged copy of `remains`, drawn with `random`. */
export function mutate(remains: Remains, random: () => number): Mutation {
  const draws = remains.older.length === 0 ? DRAWS.slice(0, -1) : DRAWS;
  return draws[below(random, draws.length)]!(remains, random);
}
