/**
 * Finishing what a killed apply left open: every create the journal says was sent but whose
 * outcome never reached the state is looked up on the service; what exists is bound to its
 * address (adopted), what does not is left for the plan to create. Runs under the account lock,
 * before the refresh of `plan`, `apply` and `destroy`.
 */
import type { AdsApi } from '../api/ads-api.js';
import { clearJournal, readJournal } from '../state/journal.js';
import { writeState, type AccountState } from '../state/state-file.js';
import { findCreated } from './find-created.js';

/** Resolves open journal entries; returns the addresses adopted. */
export async function recoverJournal(api: AdsApi, accountId: string | undefined, state: AccountState, stateDir: string): Promise<string[]> {
  const { open } = readJournal(stateDir, state.account);
  if (open.length === 0) return [];
  const adopted: string[] = [];
  if (accountId !== undefined) {
    const taken = new Set(Object.values(state.resources).map((r) => r.id));
    for (const intent of open) {
      for (const op of intent.operations) {
        if (op.action !== 'create' || op.params === undefined || state.resources[op.address] !== undefined) continue;
        const id = await findCreated(api, accountId, op.kind, op.params, intent.at, taken);
        if (id === undefined) continue;
        taken.add(id);
        state.resources[op.address] = { kind: op.kind, id, applied: op.params };
        adopted.push(op.address);
      }
    }
    writeState(stateDir, state);
  }
  clearJournal(stateDir, state.account);
  return adopted;
}
