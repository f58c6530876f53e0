/**
 * The hours of account history a plan reads to attribute drift (docs/architecture.md, "Who
 * changed it"): `GET accounts/:id/account_history` takes only whole hours (minutes and seconds
 * zero) and keeps the changes in [start_time, end_time). The window runs from the whole hour at
 * or before the last apply (floor) to the first whole hour after now (ceil; a `now` that is
 * itself a whole hour moves on one hour, since the end is excluded), so it holds every change
 * since the last apply and nothing more than the hours they fall in. Pure.
 */

const HOUR_MS = 3_600_000;

/** A window of whole hours in the wire form (`2026-11-26T14:00:00Z`). */
interface HistoryWindow {
  start: string;
  end: string;
}

/** `2026-11-26T14:00:00Z`: the wire form of a time, seconds precision. */
function wireTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The whole hour at or before `date`. */
export function floorHour(date: Date): Date {
  return new Date(Math.floor(date.getTime() / HOUR_MS) * HOUR_MS);
}

/** The first whole hour strictly after `date`. */
export function hourAfter(date: Date): Date {
  return new Date((Math.floor(date.getTime() / HOUR_MS) + 1) * HOUR_MS);
}

/**
 * The whole hours from the last apply to now. A last apply after `now` (clocks apart) gives the
 * one hour it falls in, so the window is never empty.
 */
export function historyWindow(lastApply: Date, now: Date): HistoryWindow {
  const start = floorHour(lastApply);
  const end = hourAfter(now.getTime() < lastApply.getTime() ? lastApply : now);
  return { start: wireTime(start), end: wireTime(end) };
}
