/**
 * The time of a run: the wall clock, or the instant `ADSCTL_CLOCK` (and `adsctl emulator
 * --clock`) names. Every check of adsctl that compares with "now" — a scheduled time in the past,
 * a flight ended, the hours of account history read, the age of the lookup cache, the time a
 * write was sent, the times state versions are written at, OAuth timestamps — reads one `Clock`,
 * given once to the run; so a test states the instant it runs at, and a fixture's dates mean the
 * same thing on every day the suite runs (docs/architecture.md, "One clock").
 *
 * A setting is one of:
 * - `2026-11-23T12:00:00Z` (any ISO 8601 date-time with an offset, or a date): the clock reads that
 *   instant when the process starts, then advances with real time;
 * - `+400d`, `-14d`, `+1d12h`, `-90m`, `+1500ms`: real time shifted by that much. Processes given
 *   the same shift agree to the millisecond, which is how the test suite runs the CLI, the
 *   emulator and itself at one fixed instant.
 */

/** A source of the current time. */
export interface Clock {
  now(): Date;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** What a setting says: a shift of real time, in milliseconds. */
export interface ClockSetting {
  /** Added to real time. */
  shiftMs: number;
  /** The setting as written, for messages. */
  text: string;
}

const UNIT_MS: Readonly<Record<string, number>> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
const SHIFT = /^([+-])((?:\d+(?:d|h|ms|m|s))+)$/;
const PART = /(\d+)(d|h|ms|m|s)/g;
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2}))?$/;
/** The most a setting may move the clock from real time, either way. */
const MAX_SHIFT_MS = 36_525 * UNIT_MS['d']!;

/** The instant `text` names in UTC milliseconds, or undefined when it is not a valid ISO 8601 date or date-time with an offset. */
function instantOf(text: string): number | undefined {
  const m = INSTANT.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s = '00', frac = '0', zone = 'Z'] = m;
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(h ?? 0) > 23 || Number(mi ?? 0) > 59 || Number(s) > 59) return undefined;
  // milliseconds are the clock's precision: finer digits are dropped; `+0200` is `+02:00`
  const offset = zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const ms = Date.parse(h === undefined ? `${y}-${mo}-${d}T00:00:00Z` : `${y}-${mo}-${d}T${h}:${mi}:${s}.${frac.slice(0, 3).padEnd(3, '0')}${offset}`);
  if (!Number.isFinite(ms)) return undefined;
  // Date.parse rolls 2027-02-30 over into March; a date that does not exist is refused
  const day = new Date(0);
  day.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  return day.getUTCDate() === Number(d) ? ms : undefined;
}

/**
 * Reads a clock setting (see the file's comment) against `realNow`, the real time of the process
 * start. Returns the setting, or a message saying what is wrong with `text`.
 */
export function parseClockSetting(text: string, realNow: number): ClockSetting | string {
  const trimmed = text.trim();
  const shift = SHIFT.exec(trimmed);
  if (shift !== null) {
    let ms = 0;
    for (const part of (shift[2] ?? '').matchAll(PART)) ms += Number(part[1]) * (UNIT_MS[part[2] ?? ''] ?? 0);
    if (!Number.isSafeInteger(ms) || ms > MAX_SHIFT_MS) return `the shift ${trimmed} is more than a hundred years`;
    return { shiftMs: shift[1] === '-' && ms !== 0 ? -ms : ms, text: trimmed };
  }
  const at = instantOf(trimmed);
  if (at === undefined) {
    return `${JSON.stringify(text)} is neither an instant (2026-11-23T12:00:00Z, or a date such as 2026-11-23) nor a shift of real time (+400d, -14d, +1d12h, -90m)`;
  }
  if (Math.abs(at - realNow) > MAX_SHIFT_MS) return `the instant ${trimmed} is more than a hundred years from now`;
  return { shiftMs: at - realNow, text: trimmed };
}

/** The clock a setting makes: real time shifted by the setting's shift. */
export function settingClock(setting: ClockSetting, realNow: () => number = Date.now): Clock {
  return { now: () => new Date(realNow() + setting.shiftMs) };
}

/** The shift, as a setting, that makes real time read `instantMs` now: what the test suite sets `ADSCTL_CLOCK` to. */
export function shiftTo(instantMs: number, realNow: number): string {
  const shift = Math.round(instantMs - realNow);
  return `${shift < 0 ? '-' : '+'}${Math.abs(shift)}ms`;
}
