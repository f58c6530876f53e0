/**
 * What plan, apply and destroy do before they open any endpoint: the state directories of the
 * manifests at the run's path are guarded, so that a run ended early (its stdout closed, a crash)
 * still releases the locks it holds there (early-exit.ts).
 */
import { guardLocksIn } from './early-exit.js';
import { stateDirOf, stateRoots } from './root.js';

/** Prepares a run about the manifests at `path`. */
export function startRun(path: string): void {
  for (const root of stateRoots(path)) guardLocksIn(stateDirOf(root));
}

/** Prepares a run of a saved plan whose accounts keep their state under `roots`. */
export function startSavedRun(roots: readonly string[]): void {
  for (const root of roots) guardLocksIn(stateDirOf(root));
}
