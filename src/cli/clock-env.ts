/**
 * ADSCTL_CLOCK (docs/architecture.md, "One clock"): the run's clock, read once when the command
 * line starts. Unset or empty leaves the clock the run was given (the wall clock); a value that is neither an instant nor a shift is
 * one line naming the variable, and the run stops before anything is read or sent.
 */
import { parseClockSetting, settingClock, type Clock } from '../clock/clock.js';

/** The clock ADSCTL_CLOCK sets (undefined when it sets none), or what is wrong with it. */
export function clockFromEnv(env: NodeJS.ProcessEnv, realNow: number = Date.now()): Clock | undefined | { problem: string } {
  const value = env['ADSCTL_CLOCK'];
  if (value === undefined || value.trim() === '') return undefined;
  const setting = parseClockSetting(value, realNow);
  return typeof setting === 'string' ? { problem: `ADSCTL_CLOCK: ${setting}` } : settingClock(setting);
}
