/**
 * The I/O half of the saved-plan check: re-reads the fingerprints of the live objects a saved
 * plan touches (only those, 200 ids a request) and the current state serials of the open
 * sessions, and lets `staleEntries` (src/plan/stale.ts) decide what moved.
 */
import { fingerprintUpdatedAt } from '../live/fingerprint.js';
import { fetchFingerprints } from '../live/fingerprints.js';
import { fingerprintTargets, staleEntries, type StaleEntry } from '../plan/stale.js';
import type { Plan } from '../plan/types.js';
import type { AccountSession } from './accounts.js';

/**
 * When the service says the object of a stale entry was changed: its update time now, when that
 * differs from the one the plan saw; undefined for a state, a deleted object, or a time not known.
 */
export function changedAt(entry: StaleEntry): string | undefined {
  if (entry.kind === 'state' || entry.now === undefined) return undefined;
  const now = fingerprintUpdatedAt(entry.now);
  return now !== undefined && now !== fingerprintUpdatedAt(entry.planned) ? now : undefined;
}

/** What moved since `plan` was made, for the accounts of `sessions` (see `staleEntries`). */
export async function staleObjects(plan: Plan, sessions: readonly AccountSession[]): Promise<StaleEntry[]> {
  const serials: Record<string, number> = {};
  const fingerprints = new Map<string, string>();
  await Promise.all(
    plan.accounts.map(async (account) => {
      const session = sessions.find((s) => s.key === account.account);
      if (session === undefined) return;
      serials[account.account] = session.state.serial;
      if (session.state.serial !== account.stateSerial || session.accountId === undefined) return;
      const now = await fetchFingerprints(session.api, session.accountId, fingerprintTargets(account));
      for (const [id, fingerprint] of now) fingerprints.set(id, fingerprint);
    }),
  );
  return staleEntries(plan, serials, fingerprints);
}
