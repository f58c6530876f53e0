/**
 * "Did you mean" for misspelt names: the closest candidate by edit distance, offered only when it
 * is close enough to be a plausible typo, so a suggestion is a help and never a guess.
 */
import { quoteValue } from './quote.js';

/**
 * The edit distance of `a` and `b` when it is at most `limit`, else `limit + 1`. Only the band of
 * cells within `limit` of the diagonal is computed (row cells indexed by `j - i + limit`), so two
 * names of a million characters cost a few million steps, not a trillion.
 */
function distance(a: string, b: string, limit: number): number {
  const far = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return far;
  const width = 2 * limit + 1;
  const at = (row: readonly number[], k: number): number => (k >= 0 && k < width ? (row[k] ?? far) : far);
  let before: number[] = new Array<number>(width).fill(far);
  let previous: number[] = Array.from({ length: width }, (_, k) => (k - limit >= 0 && k - limit <= b.length ? k - limit : far));
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(width).fill(far);
    let rowMin = far;
    for (let k = 0; k < width; k++) {
      const j = i + k - limit;
      if (j < 0 || j > b.length) continue;
      let value = i;
      if (j > 0) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        value = Math.min(at(previous, k + 1) + 1, at(current, k - 1) + 1, at(previous, k) + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, at(before, k) + 1);
      }
      current[k] = Math.min(value, far);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return far;
    before = previous;
    previous = current;
  }
  return at(previous, b.length - a.length + limit);
}

/**
 * The candidate nearest to `word` (case-insensitive edit distance, a swap of two neighbouring
 * letters counting as one edit), if it is within a third
 * of the word's length (at least 1, at most 3 edits); the first of equally near candidates wins.
 */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const d = distance(lower, candidate.toLowerCase(), limit);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** The longest edit distance `nearestMatches` measures: a word or candidate longer than this apart is never near. */
const NEAREST_LIMIT = 64;

/**
 * The `count` candidates nearest to `word` (case-insensitive edit distance), nearest first, the
 * earlier of equally near ones first: what there is, for a word no candidate is close enough to
 * as a typo. Distances past that of the `count`-th nearest so far (and past 64 edits) are not
 * measured, so a long list of candidates costs about one pass over it.
 */
export function nearestMatches(word: string, candidates: Iterable<string>, count: number): string[] {
  if (count <= 0) return [];
  const lower = word.toLowerCase();
  const best: Array<{ candidate: string; distance: number }> = [];
  let limit = NEAREST_LIMIT;
  for (const candidate of candidates) {
    const d = distance(lower, candidate.toLowerCase(), limit);
    if (d > limit || (best.length === count && d >= best[count - 1]!.distance)) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.distance > d) at--;
    best.splice(at, 0, { candidate, distance: d });
    if (best.length > count) best.pop();
    if (best.length === count) limit = best[count - 1]!.distance;
  }
  return best.map((b) => b.candidate);
}

/** `; did you mean "x"?` when a close candidate exists, else the empty string: ready to append to a message. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const match = closestMatch(word, candidates);
  return match === undefined ? '' : `; did you mean ${quoteValue(match)}?`;
}
