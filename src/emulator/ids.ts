/**
 * Identifier generation. Entity ids are short base-36 strings (`8wku2`), post and card ids are
 * decimal snowflakes, as on the service. Both come from one counter so a store replayed from its
 * journal keeps generating the same ids.
 */

const LOW = 36 ** 5;
const SPAN = 36 ** 6 - LOW; // 35 * 36^5
const STEP = 7_919; // prime, coprime with SPAN, so n -> n * STEP mod SPAN is a bijection

/** The six-character base-36 entity id for counter value `n` (distinct for n below 35 * 36^5). */
export function entityId(n: number): string {
  return (((n * STEP) % SPAN) + LOW).toString(36);
}

/** A 19-digit snowflake-like decimal id for counter value `n`. */
export function snowflakeId(n: number): string {
  return (1_346_184_843_436_720_128n + BigInt(n) * 4_194_304n).toString();
}
