/**
 * Finishing what a killed apply left open: every create the journal says was sent but whose
 * outcome never reached the state is looked up on the service (all at once: a request or two per
 * kind); what exists is bound to its address (adopted), what does not is left for the plan to
 * create. Runs under the account lock,
 * before the refresh of `plan`, `apply` and `destroy`.
 */
import type { AdsApi } from '../api/ads-api.js';
import { clearJournal, describeJournalDamage, readJournal } from '../state/journal.js';
import { writeState, type AccountState } from '../state/state-file.js';
import { boundAccountIds } from '../state/state-files.js';
import { createdAccountCandidates, findCreatedAll, type SentCreate } from './find-created.js';

/**
 * Resolves open journal entries; returns the addresses adopted. A sandbox account whose create
 * had no answer is adopted into `state.account_id` when it can be told apart. A damaged journal
 * is refused when the session opens (session.ts); meeting one here is a bug, and nothing is
 * cleared.
 */
export async function recoverJournal(api: AdsApi, accountId: string | undefined, state: AccountState, stateDir: string): Promise<string[]> {
  const { open, damage } = readJournal(stateDir, state.account);
  if (damage !== undefined) throw new Error(describeJournalDamage(damage));
  if (open.length === 0) return [];
  const adopted: string[] = [];
  const accountCreate = open.find((intent) => intent.operations.some((op) => op.kind === 'account' && op.action === 'create'));
  if (accountId === undefined && accountCreate !== undefined) {
    const candidates = await createdAccountCandidates(api, accountCreate.at, boundAccountIds(stateDir));
    if (candidates.length === 1) {
      accountId = candidates[0]!;
      state.account_id = accountId;
      state.resources['account'] = { kind: 'account', id: accountId, applied: {}, created: true };
      adopted.push('account');
    }
  }
  if (accountId !== undefined) {
    const pending = new Map<string, SentCreate>();
    for (const intent of open) {
      for (const op of intent.operations) {
        if (op.action !== 'create' || op.params === undefined || state.resources[op.address] !== undefined || pending.has(op.address)) continue;
        pending.set(op.address, { kind: op.kind, params: op.params, sentAt: intent.at });
      }
    }
    const taken = new Set(Object.values(state.resources).map((r) => r.id));
    const found = await findCreatedAll(api, accountId, [...pending.values()], taken);
    [...pending].forEach(([address, create], i) => {
      const id = found[i];
      if (id === undefined) return;
      state.resources[address] = { kind: create.kind, id, applied: create.params };
      adopted.push(address);
    });
    writeState(stateDir, state);
  }
  clearJournal(stateDir, state.account);
  return adopted;
}
