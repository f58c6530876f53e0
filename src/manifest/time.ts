/**
 * Timestamps of the manifest: ISO 8601 date-times with seconds and an explicit zone (Z or an
 * offset), normalised to UTC as the API writes them (`2026-06-01T07:00:00Z`). A zone is required
 * because the account's time zone is not known offline and a guessed one moves money by hours.
 */

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|z|[+-]\d{2}(?::?\d{2})?)$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The UTC form of a timestamp (`YYYY-MM-DDTHH:MM:SSZ`, with milliseconds only when not zero), or
 * undefined when the text is not a valid date-time with a zone.
 */
export function normaliseTimestamp(text: string): string | undefined {
  const m = TIMESTAMP.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  const zone = m[8] ?? 'Z';
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const digits = zone.slice(1).replace(':', '');
    const zh = Number(digits.slice(0, 2));
    const zm = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (zh > 23 || zm > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (zh * 60 + zm);
  }
  const millis = Number(((m[7] ?? '') + '000').slice(0, 3));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offsetMinutes, second, millis);
  const iso = date.toISOString();
  return millis === 0 ? iso.replace('.000Z', 'Z') : iso;
}
