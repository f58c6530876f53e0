/**
 * The run's clock (src/clock/clock.ts, docs/architecture.md "One clock"): what a setting of
 * ADSCTL_CLOCK or `adsctl emulator --clock` means — an instant (with Z or an offset, or a date alone
 * meaning midnight UTC) or a signed shift of real time — and what is refused, with its message;
 * that the clock a setting makes reads real time shifted and advances with it; that `shiftTo`
 * gives the setting that makes the clock read a chosen instant, the same in every process given
 * it; and that `clockFromEnv` (src/cli/run-env.ts) reads ADSCTL_CLOCK: nothing when unset or
 * empty, a clock when valid, a problem naming the variable otherwise. Real time is injected
 * throughout (`realNow`, or Date faked where the code reads it itself), so no reading depends on
 * when the test runs.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseClockSetting, settingClock, shiftTo, type ClockSetting } from '../../src/clock/clock.js';
import { clockFromEnv } from '../../src/cli/run-env.js';
import { TEST_INSTANT } from '../support/test-clock.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Real time as the tests inject it: the test instant. */
const REAL = Date.parse(TEST_INSTANT);

/** The message for a setting that is neither an instant nor a shift. */
const neither = (text: string): string =>
  `${JSON.stringify(text)} is neither an instant (2026-11-23T12:00:00Z, or a date such as 2026-11-23) nor a shift of real time (+400d, -14d, +1d12h, -90m)`;

/** `text` parsed at `realNow`, failing the test with the message when it is refused. */
function parsed(text: string, realNow = REAL): ClockSetting {
  const setting = parseClockSetting(text, realNow);
  if (typeof setting === 'string') throw new Error(`${text} refused: ${setting}`);
  return setting;
}

describe('parseClockSetting: instants', () => {
  // the setting is the shift that makes real time (REAL) read the instant
  const cases: Array<{ name: string; text: string; reads: string }> = [
    { name: 'UTC with Z', text: '2030-01-01T00:00:00Z', reads: '2030-01-01T00:00:00.000Z' },
    { name: 'the test instant itself: no shift', text: '2026-11-23T12:00:00Z', reads: '2026-11-23T12:00:00.000Z' },
    { name: 'an offset east of UTC', text: '2026-11-23T14:00:00+02:00', reads: '2026-11-23T12:00:00.000Z' },
    { name: 'an offset west of UTC, with half hours', text: '2026-11-23T07:30:00-04:30', reads: '2026-11-23T12:00:00.000Z' },
    { name: 'an offset that moves the date', text: '2026-12-01T01:00:00+05:00', reads: '2026-11-30T20:00:00.000Z' },
    { name: 'a date alone is midnight UTC', text: '2026-12-04', reads: '2026-12-04T00:00:00.000Z' },
    { name: 'a leap day that exists', text: '2028-02-29', reads: '2028-02-29T00:00:00.000Z' },
    { name: 'an instant before real time', text: '2026-11-09T12:00:00Z', reads: '2026-11-09T12:00:00.000Z' },
    { name: 'fractional seconds, one digit', text: '2026-11-23T12:00:00.5Z', reads: '2026-11-23T12:00:00.500Z' },
    { name: 'fractional seconds, three digits, with an offset', text: '2026-11-23T12:00:00.123+01:00', reads: '2026-11-23T11:00:00.123Z' },
    { name: 'minutes without seconds', text: '2026-11-23T12:30Z', reads: '2026-11-23T12:30:00.000Z' },
    { name: 'fractional seconds, six digits: milliseconds kept, the rest dropped', text: '2026-11-23T12:00:00.123456Z', reads: '2026-11-23T12:00:00.123Z' },
    { name: 'an offset without a colon', text: '2026-11-23T14:00:00+0200', reads: '2026-11-23T12:00:00.000Z' },
    { name: 'surrounding blanks are ignored', text: '  2030-01-01T00:00:00Z\n', reads: '2030-01-01T00:00:00.000Z' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(parseClockSetting(c.text, REAL)).toEqual({ shiftMs: Date.parse(c.reads) - REAL, text: c.text.trim() });
    });
  }

  it('depends on real time at the start: the same instant read later is a smaller shift', () => {
    expect(parsed('2030-01-01T00:00:00Z', REAL + 5 * SECOND).shiftMs).toBe(parsed('2030-01-01T00:00:00Z', REAL).shiftMs - 5 * SECOND);
  });
});

describe('parseClockSetting: shifts of real time', () => {
  // a shift is the same whatever real time is: each row is read at two real times
  const cases: Array<{ text: string; shiftMs: number }> = [
    { text: '+400d', shiftMs: 400 * DAY },
    { text: '-14d', shiftMs: -14 * DAY },
    { text: '+1d12h', shiftMs: DAY + 12 * HOUR },
    { text: '-90m', shiftMs: -90 * MINUTE },
    { text: '+1500ms', shiftMs: 1_500 },
    { text: '+45s', shiftMs: 45 * SECOND },
    { text: '-2h30m15s250ms', shiftMs: -(2 * HOUR + 30 * MINUTE + 15 * SECOND + 250) },
    { text: '+0d', shiftMs: 0 },
    { text: '-0d', shiftMs: 0 },
  ];
  for (const c of cases) {
    it(c.text, () => {
      expect(parseClockSetting(c.text, REAL)).toEqual({ shiftMs: c.shiftMs, text: c.text });
      expect(parseClockSetting(c.text, REAL + 400 * DAY)).toEqual({ shiftMs: c.shiftMs, text: c.text });
    });
  }
});

describe('parseClockSetting: refusals', () => {
  const cases: Array<{ name: string; text: string; message: string }> = [
    { name: 'empty', text: '', message: neither('') },
    { name: 'a word', text: 'tomorrow', message: neither('tomorrow') },
    { name: 'a date that does not exist', text: '2027-02-30', message: neither('2027-02-30') },
    { name: 'a leap day of a year without one', text: '2027-02-29', message: neither('2027-02-29') },
    { name: 'a month that does not exist', text: '2026-13-01', message: neither('2026-13-01') },
    { name: 'a time without an offset', text: '2026-11-23T12:00:00', message: neither('2026-11-23T12:00:00') },
    { name: 'an hour that does not exist', text: '2026-11-23T24:00:00Z', message: neither('2026-11-23T24:00:00Z') },
    { name: 'a shift without its sign', text: '400d', message: neither('400d') },
    { name: 'a shift in years', text: '+5y', message: neither('+5y') },
    { name: 'a shift without a unit', text: '+400', message: neither('+400') },
    { name: 'a shift over a hundred years', text: '+36601d', message: 'the shift +36601d is more than a hundred years' },
    { name: 'a shift back over a hundred years', text: '-1000000h', message: 'the shift -1000000h is more than a hundred years' },
    { name: 'an instant over a hundred years away', text: '2200-01-01', message: 'the instant 2200-01-01 is more than a hundred years from now' },
    { name: 'a shift too large to count in milliseconds', text: '+99999999999999999999ms', message: 'the shift +99999999999999999999ms is more than a hundred years' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(parseClockSetting(c.text, REAL)).toBe(c.message);
    });
  }
});

describe('settingClock', () => {
  // real time is injected and moved on by hand; the clock reads it shifted at every call
  const cases: Array<{ text: string; atStart: string }> = [
    { text: '+400d', atStart: '2027-12-28T12:00:00.000Z' },
    { text: '-14d', atStart: '2026-11-09T12:00:00.000Z' },
    { text: '-90m', atStart: '2026-11-23T10:30:00.000Z' },
    { text: '+0d', atStart: '2026-11-23T12:00:00.000Z' },
    { text: '2030-01-01T00:00:00Z', atStart: '2030-01-01T00:00:00.000Z' },
    { text: '2026-11-23T14:00:00+02:00', atStart: '2026-11-23T12:00:00.000Z' },
  ];
  for (const c of cases) {
    it(c.text, () => {
      let real = REAL;
      const clock = settingClock(parsed(c.text), () => real);
      expect(clock.now().toISOString()).toBe(c.atStart);
      real += 90 * SECOND;
      expect(clock.now().getTime()).toBe(Date.parse(c.atStart) + 90 * SECOND);
      real += DAY;
      expect(clock.now().getTime()).toBe(Date.parse(c.atStart) + DAY + 90 * SECOND);
    });
  }
});

describe('shiftTo', () => {
  // the setting shiftTo(instant, real) returns, parsed, makes the clock read the instant at real
  const cases: Array<{ name: string; instant: string; real: string; setting: string }> = [
    { name: 'the test instant, on a later day', instant: TEST_INSTANT, real: '2026-12-07T16:18:36.123Z', setting: `-${Date.parse('2026-12-07T16:18:36.123Z') - REAL}ms` },
    { name: 'the test instant, on an earlier day', instant: TEST_INSTANT, real: '2025-06-01T08:00:00.000Z', setting: `+${REAL - Date.parse('2025-06-01T08:00:00.000Z')}ms` },
    { name: 'the instant real time reads', instant: TEST_INSTANT, real: TEST_INSTANT, setting: '+0ms' },
    { name: 'an instant with milliseconds', instant: '2030-01-01T00:00:00.007Z', real: TEST_INSTANT, setting: `+${Date.parse('2030-01-01T00:00:00.007Z') - REAL}ms` },
    { name: 'a year ago', instant: '2025-11-23T12:00:00.000Z', real: TEST_INSTANT, setting: `-${365 * DAY}ms` },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const real = Date.parse(c.real);
      const setting = shiftTo(Date.parse(c.instant), real);
      expect(setting).toBe(c.setting);
      expect(settingClock(parsed(setting, real), () => real).now().getTime()).toBe(Date.parse(c.instant));
      // a process started later, given the same setting, agrees with the first to the millisecond
      const later = real + 5 * SECOND;
      const first = settingClock(parsed(setting, real), () => later);
      const second = settingClock(parsed(setting, later), () => later);
      expect(second.now().getTime()).toBe(first.now().getTime());
      expect(second.now().getTime()).toBe(Date.parse(c.instant) + 5 * SECOND);
    });
  }

  it('is why processes share a shift: an instant read by a process started later reads behind', () => {
    const later = REAL + 5 * SECOND;
    const first = settingClock(parsed(TEST_INSTANT, REAL), () => later);
    const second = settingClock(parsed(TEST_INSTANT, later), () => later);
    expect(first.now().getTime() - second.now().getTime()).toBe(5 * SECOND);
  });
});

describe('clockFromEnv', () => {
  // the clock clockFromEnv makes reads Date.now() itself: Date is faked to stand at REAL
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(REAL);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const none: Array<{ name: string; env: NodeJS.ProcessEnv }> = [
    { name: 'unset', env: {} },
    { name: 'empty', env: { ADSCTL_CLOCK: '' } },
    { name: 'blank', env: { ADSCTL_CLOCK: '  ' } },
    { name: 'another variable only', env: { ADSCTL_CLOCK_X: '+400d' } },
  ];
  for (const c of none) {
    it(`${c.name}: no clock, the run keeps the one it was given`, () => {
      expect(clockFromEnv(c.env, REAL)).toBeUndefined();
    });
  }

  const valid: Array<{ value: string; atStart: string }> = [
    { value: '+400d', atStart: '2027-12-28T12:00:00.000Z' },
    { value: '-14d', atStart: '2026-11-09T12:00:00.000Z' },
    { value: '2030-01-01T00:00:00Z', atStart: '2030-01-01T00:00:00.000Z' },
    { value: ' 2026-12-04 ', atStart: '2026-12-04T00:00:00.000Z' },
  ];
  for (const c of valid) {
    it(`${JSON.stringify(c.value)}: a clock that reads ${c.atStart} and advances with real time`, () => {
      const clock = clockFromEnv({ ADSCTL_CLOCK: c.value }, REAL);
      if (clock === undefined || 'problem' in clock) throw new Error(`no clock: ${JSON.stringify(clock)}`);
      expect(clock.now().toISOString()).toBe(c.atStart);
      vi.setSystemTime(REAL + MINUTE);
      expect(clock.now().getTime()).toBe(Date.parse(c.atStart) + MINUTE);
    });
  }

  const bad = ['bogus', 'tomorrow', '400d', '2027-02-30', '2026-11-23T12:00:00'];
  for (const value of bad) {
    it(`${JSON.stringify(value)}: a problem naming ADSCTL_CLOCK and the value`, () => {
      expect(clockFromEnv({ ADSCTL_CLOCK: value }, REAL)).toEqual({ problem: `ADSCTL_CLOCK: ${neither(value)}` });
    });
  }

  it('a shift over a hundred years: a problem naming ADSCTL_CLOCK', () => {
    expect(clockFromEnv({ ADSCTL_CLOCK: '+36601d' }, REAL)).toEqual({ problem: 'ADSCTL_CLOCK: the shift +36601d is more than a hundred years' });
  });
});
