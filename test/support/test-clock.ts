/**
 * The instant the suite runs at (docs/architecture.md, "One clock"). Every test file starts at
 * TEST_INSTANT: `clock-setup.ts` (vitest setupFiles) sets ADSCTL_CLOCK to the shift of real time
 * that makes the clock read TEST_INSTANT as the file starts, so the CLI processes a test runs, the
 * emulators it starts and the requests it signs all agree on the time, to the millisecond, on
 * whatever day the suite runs. Dates in fixtures are written relative to this instant: a
 * scheduled post at `2026-12-04T17:00:00Z` is eleven days after it, whenever the suite runs.
 */
import { parseClockSetting, settingClock, systemClock, type Clock } from '../../src/clock/clock.js';

/** The instant every test file starts at: after the times the golden fixtures pin (applied 2026-11-20, changed outside 2026-11-21, after a plan was saved 2026-11-22). */
export const TEST_INSTANT = '2026-11-23T12:00:00Z';

/** The clock of this test file: real time shifted as ADSCTL_CLOCK says (the wall clock when it is unset, as in a benchmark). */
export const testClock: Clock = {
  now: () => {
    const value = process.env['ADSCTL_CLOCK'];
    if (value === undefined || value.trim() === '') return systemClock.now();
    const setting = parseClockSetting(value, Date.now());
    if (typeof setting === 'string') throw new Error(`ADSCTL_CLOCK: ${setting}`);
    return settingClock(setting).now();
  },
};

/** The test clock in epoch milliseconds. */
export const testNow = (): number => testClock.now().getTime();

/**
 * The environment that sets a child process's time: the test clock, and, when the suite runs with
 * the system date moved by libfaketime (`faketime -f +389d npm test`), its variables, so the
 * children the suite starts with a clean environment read the same system date as the suite.
 */
export function clockEnv(): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && (name === 'ADSCTL_CLOCK' || name === 'LD_PRELOAD' || name === 'DONT_FAKE_MONOTONIC' || name.startsWith('FAKETIME'))) out[name] = value;
  }
  return out;
}
