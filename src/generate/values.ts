/**
 * Values as a person writes them in a manifest (docs/manifest.md, "Values"): money in currency
 * units, exactly (integer arithmetic on the micros, never floating point), with at least two
 * decimals; times in UTC to the second.
 */

/** `35000000` → `"35.00"`, `1234567` → `"1.234567"`; undefined for what is not an integer amount. */
export function unitsOf(micros: unknown): string | undefined {
  const text = typeof micros === 'number' && Number.isSafeInteger(micros) ? String(micros) : typeof micros === 'string' && /^-?\d+$/.test(micros) ? micros : undefined;
  if (text === undefined) return undefined;
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).padStart(7, '0');
  const whole = digits.slice(0, -6).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-6).replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** A timestamp in UTC, `YYYY-MM-DDTHH:MM:SSZ` (milliseconds kept only when there are any); undefined for what is not one. */
export function utcOf(time: unknown): string | undefined {
  if (typeof time !== 'string') return undefined;
  const ms = Date.parse(time);
  if (Number.isNaN(ms)) return undefined;
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}
