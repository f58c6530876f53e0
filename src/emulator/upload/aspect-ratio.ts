/**
 * Aspect ratios as the media library reports them (`16:9`, `1.91:1`) and as card rules check them:
 * a picture has a ratio when its width over height is within 1% of it, so that sizes such as
 * 1200x628 count as 1.91:1 the way the service's own recommended sizes do.
 */

const TOLERANCE = 0.01;

/** The labels the service uses, by ratio. */
const KNOWN: ReadonlyArray<[label: string, ratio: number]> = [
  ['1:1', 1],
  ['16:9', 16 / 9],
  ['9:16', 9 / 16],
  ['4:3', 4 / 3],
  ['3:4', 3 / 4],
  ['3:2', 3 / 2],
  ['2:3', 2 / 3],
  ['4:5', 4 / 5],
  ['2:1', 2],
  ['5:2', 5 / 2],
  ['1.91:1', 1.91],
];

/** True when `width` / `height` is `ratio` within the tolerance. */
export function hasAspectRatio(width: number, height: number, ratio: number): boolean {
  return Math.abs(width / height - ratio) / ratio <= TOLERANCE;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The label of a picture's ratio: a known one when close enough, else the reduced `w:h`. */
export function aspectRatioLabel(width: number, height: number): string {
  const known = KNOWN.find(([, ratio]) => hasAspectRatio(width, height, ratio));
  if (known !== undefined) return known[0];
  const g = gcd(width, height);
  return `${width / g}:${height / g}`;
}
