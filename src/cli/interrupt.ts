/**
 * SIGINT (Ctrl-C) and SIGTERM during apply and destroy. Before the writes begin, a signal ends the
 * run at once: nothing was sent, and the locks are released on the way out (early-exit.ts). Once
 * they have begun, the first signal only asks the apply to stop: it sends nothing new, lets the
 * requests in flight finish and records them (state written, journal closed), so the run can
 * release its locks and say what is left. A second signal ends the run at once; the journal still
 * names the requests in flight, so the next apply looks them up instead of sending them twice.
 */
import { exitNow } from './early-exit.js';

export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** The exit code of a run ended by each signal, as a shell reports a process it killed (128 + n). */
export const INTERRUPT_EXIT: Readonly<Record<InterruptSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

export interface Interrupts {
  /** From now on the first signal stops the writes instead of ending the run; aborted when it comes. */
  drain(): AbortSignal;
  /** The signal that asked the writes to stop, if one did. */
  received(): InterruptSignal | undefined;
  /** Stops watching: the signals have their default effect again. */
  dispose(): void;
}

/** Watches SIGINT and SIGTERM for one run; `err` prints what the run does about them. */
export function watchInterrupts(err: (text: string) => void): Interrupts {
  let received: InterruptSignal | undefined;
  let writes: AbortController | undefined;
  const handle = (signal: InterruptSignal): void => {
    if (writes === undefined) {
      err('\nInterrupted: no change was made.\n');
      exitNow(INTERRUPT_EXIT[signal]);
    }
    if (received !== undefined) {
      err('\nInterrupted again: stopping at once. The journal names the requests that were in flight; the next adsctl apply looks them up on the service before sending anything.\n');
      exitNow(INTERRUPT_EXIT[signal]);
    }
    received = signal;
    err('\nInterrupt received: finishing the requests in flight and saving the state; interrupt again to stop at once.\n');
    writes.abort(signal);
  };
  const onInterrupt = (): void => handle('SIGINT');
  const onTerminate = (): void => handle('SIGTERM');
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onTerminate);
  return {
    drain: () => {
      writes ??= new AbortController();
      return writes.signal;
    },
    received: () => received,
    dispose: () => {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onTerminate);
    },
  };
}
