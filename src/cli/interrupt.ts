/**
 * SIGINT (Ctrl-C) and SIGTERM during apply and destroy. Before the writes begin, a signal ends the
 * run at once: nothing was sent, and the locks are released on the way out (early-exit.ts). Once
 * they have begun, the first signal only asks the apply to stop: it sends nothing new, lets the
 * requests in flight finish and records them (state written, journal closed), so the run can
 * release its locks and say what is left. A second signal ends the run at once; the journal still
 * names the requests in flight, so the next apply looks them up instead of sending them twice.
 * Every other command that takes a lock (plan, import, the state commands), and a run before its
 * apply watches, is ended at once the same way (`exitOnInterrupt`, installed when the command
 * opens its state), so no signal leaves a lock behind: each lock is released through its backend,
 * a PostgreSQL holder row included, before the process exits.
 */
import { exitNow, exitReleasing } from './early-exit.js';

type InterruptSignal = 'SIGINT' | 'SIGTERM';

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

/** Runs watching the signals now; while there is one, `exitOnInterrupt` leaves the signals to it. */
let watching = 0;
let exitInstalled = false;

/**
 * From now on SIGINT and SIGTERM end the process at once (130, 143) after releasing the locks it
 * holds, except while a run watches them itself (`watchInterrupts`). Installed once, for the
 * process's life; `err` prints the one line said.
 */
export function exitOnInterrupt(err: (text: string) => void): void {
  if (exitInstalled) return;
  exitInstalled = true;
  const handle = (signal: InterruptSignal): void => {
    if (watching > 0) return;
    err('\nInterrupted.\n');
    void exitReleasing(INTERRUPT_EXIT[signal]);
  };
  process.on('SIGINT', () => handle('SIGINT'));
  process.on('SIGTERM', () => handle('SIGTERM'));
}

/** Watches SIGINT and SIGTERM for one run; `err` prints what the run does about them. */
export function watchInterrupts(err: (text: string) => void): Interrupts {
  let received: InterruptSignal | undefined;
  let writes: AbortController | undefined;
  const handle = (signal: InterruptSignal): void => {
    if (writes === undefined) {
      err('\nInterrupted: no change was made.\n');
      void exitReleasing(INTERRUPT_EXIT[signal]);
      return;
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
  watching++;
  let disposed = false;
  return {
    drain: () => {
      writes ??= new AbortController();
      return writes.signal;
    },
    received: () => received,
    dispose: () => {
      if (disposed) return;
      disposed = true;
      watching--;
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onTerminate);
    },
  };
}
