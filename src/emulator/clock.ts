/** Time as the service formats it: ISO 8601 UTC with seconds precision and a `Z`. */

/** A source of the current time; tests and persistence share the real one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** `2026-11-21T23:24:48Z` — the wire form of every timestamp. */
export function formatTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Parses an ISO 8601 date or date-time in any offset (a date alone means midnight UTC, as the
 * service echoes `2022-06-15` as `2022-06-15T00:00:00Z`). Returns undefined when malformed.
 */
export function parseTime(text: string): Date | undefined {
  const m = ISO.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
  if (m[4] !== undefined && zone === undefined) return undefined;
  const offset = zone === undefined || zone === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  if (Number.isNaN(date.getTime())) return undefined;
  if (Number(mo) > 12 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  return date;
}
