/**
 * The settings a run takes from the environment, read once when the command line starts; a value
 * that is not one is one line naming the variable, and the run stops before anything is read or
 * sent.
 *
 * - ADSCTL_CLOCK (docs/architecture.md, "One clock"): the run's clock. Unset or empty leaves the
 *   clock the run was given (the wall clock); otherwise an instant or a shift.
 * - ADSCTL_REQUEST_TIMEOUT (docs/architecture.md, "Fencing"): the deadline of each request a run
 *   sends, a duration of at least 1 s (the API client's 60 s when unset). It bounds how long a
 *   write can be on the wire, which a run taking a lock over from a holder that may still run
 *   waits out before it reads; the lock names it for that run.
 */
import { parseClockSetting, settingClock, type Clock } from '../clock/clock.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The clock ADSCTL_CLOCK sets (undefined when it sets none), or what is wrong with it. */
export function clockFromEnv(env: Env, realNow: number = Date.now()): Clock | undefined | { problem: string } {
  const value = env['ADSCTL_CLOCK'];
  if (value === undefined || value.trim() === '') return undefined;
  const setting = parseClockSetting(value, realNow);
  return typeof setting === 'string' ? { problem: `ADSCTL_CLOCK: ${setting}` } : settingClock(setting);
}

/** The duration `value` names in ms — `30s`, `5m`, `1500ms` or plain seconds, as Terraform's `-lock-timeout` takes them — or undefined when it names none. */
export function durationMs(value: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (m === null) return undefined;
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  return Math.round(n * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000));
}

/** The deadline ADSCTL_REQUEST_TIMEOUT sets in ms (undefined when it sets none), or what is wrong with it. */
export function requestTimeoutFromEnv(env: Env): number | undefined | { problem: string } {
  const value = env['ADSCTL_REQUEST_TIMEOUT'];
  if (value === undefined || value.trim() === '') return undefined;
  const ms = durationMs(value);
  if (ms === undefined) return { problem: `ADSCTL_REQUEST_TIMEOUT: "${value}" is not a duration such as 30s or 2m` };
  if (ms < 1_000) return { problem: `ADSCTL_REQUEST_TIMEOUT: ${value} is shorter than 1 s, which no request to the service can be sure to finish in` };
  return ms;
}
