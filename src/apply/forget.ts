/**
 * Forgetting an address at the end of an apply: it leaves the state, and so does what is kept
 * beside it (a membership's members last uploaded: its store file, and its row where the state's
 * database keeps member stores). A row's removal is awaited only after the final checkpoint, so a
 * failure there leaves a row of a gone membership, never a lost outcome.
 */
import { rmSync } from 'node:fs';
import { keepsMembers, membersStoreOf, rowName } from '../members/store-path.js';
import type { ApplyRun } from './run.js';

/** Drops `address` from the run's state, with what is kept beside it. */
export function forget(run: ApplyRun, address: string): void {
  const { state, store, plan } = run;
  const entry = state.resources[address];
  delete state.resources[address];
  if (entry === undefined || !keepsMembers(entry.kind)) return;
  const kept = membersStoreOf(run.stateDir, plan.account, address, entry.id, store.memberRows?.(plan.account));
  rmSync(kept.path, { force: true });
  rmSync(kept.legacyPath, { force: true });
  // settled here, so a failure is met when awaited, never as an unhandled rejection
  if (kept.rows !== undefined) run.forgetting.push(kept.rows.remove(rowName(kept)).then(() => undefined, (error: unknown) => error));
}

/** Waits for every removal `forget` started; throws the first that failed. */
export async function forgotten(run: ApplyRun): Promise<void> {
  const failed = (await Promise.all(run.forgetting)).find((e) => e !== undefined);
  if (failed !== undefined) throw failed;
}
