/**
 * What plan, apply and destroy do before they open any endpoint: the endpoints opened from then on
 * retry refused connections only for the run's `--connect-timeout`, and the state directories of
 * the manifests at the run's path are guarded, so that a run ended early (its stdout closed, a
 * crash) still releases the locks it holds there (early-exit.ts).
 */
import { guardLocksIn } from './early-exit.js';
import { setConnectTimeout } from './endpoint.js';
import { stateDirOf, stateRoots } from './root.js';
import type { RunFlags } from './run-options.js';

/** Prepares a run about the manifests at `path`. */
export function startRun(path: string, flags: Pick<RunFlags, 'connectTimeout'>): void {
  setConnectTimeout(flags.connectTimeout);
  for (const root of stateRoots(path)) guardLocksIn(stateDirOf(root));
}

/** Prepares a run of a saved plan whose accounts keep their state under `roots`. */
export function startSavedRun(roots: readonly string[], flags: Pick<RunFlags, 'connectTimeout'>): void {
  setConnectTimeout(flags.connectTimeout);
  for (const root of roots) guardLocksIn(stateDirOf(root));
}
