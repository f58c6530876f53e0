/**
 * A clock a test moves by hand (src/clock/clock.ts): it reads one instant until the test, or a
 * sleep injected into the run, moves it on. Given to the in-process emulator and to the engine's
 * runs alike, it makes a scenario that needs time to pass (a later second for the account history,
 * a saved plan gone stale) state how much, instead of waiting for a real timer.
 */
import type { Clock } from '../../src/clock/clock.js';
import { TEST_INSTANT } from './test-clock.js';

/** A clock that reads one instant until a test (or an injected sleep) moves it. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

/** A `ManualClock` at `start` (TEST_INSTANT unless told). */
export function manualClock(start: string = TEST_INSTANT): ManualClock {
  let at = Date.parse(start);
  return {
    now: () => new Date(at),
    advance: (ms) => {
      at += ms;
    },
  };
}
