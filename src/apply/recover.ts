/**
 * Finishing what a killed apply left open: every create the journal says was sent but whose
 * outcome never reached the state (nor a journalled outcome) is looked up on the service (all at
 * once: a request or two per kind); what exists is bound to its address (adopted), what does not
 * is left for the plan to create. Runs under the account lock, before the refresh of `apply` and
 * `destroy`, on the state as loaded (the last checkpoint with the journalled outcomes replayed).
 */
import type { AdsApi } from '../api/ads-api.js';
import { absorbJournal, replayOutcomes } from '../state/apply-journal.js';
import { describeJournalDamage } from '../state/journal.js';
import type { AccountState } from '../state/state-file.js';
import type { JournalStore, StateReader, StateWriter } from '../state/store.js';
import { createdAccountCandidates, findCreatedAll, type SentCreate } from './find-created.js';
import { isResourceKind, KINDS } from '../kinds/registry.js';

/**
 * Resolves open journal entries; returns the addresses adopted. A sandbox account whose create
 * had no answer is adopted into `state.account_id` when it can be told apart. The state, with
 * what was adopted, is then written (a new serial only when entries were open) and the journal
 * cleared. A damaged journal is refused when
 * the session opens (session.ts); meeting one here is a bug, and nothing is cleared.
 */
export async function recoverJournal(api: AdsApi, accountId: string | undefined, state: AccountState, store: StateReader & StateWriter & JournalStore): Promise<string[]> {
  const journal = await store.readJournal(state.account);
  if (journal.damage !== undefined) throw new Error(describeJournalDamage(journal.damage));
  const { open } = journal;
  if (open.length === 0 && journal.outcomes.length === 0) return [];
  // the state was loaded with the outcomes replayed; replaying again is a no-op unless it was not
  replayOutcomes(state, journal.outcomes);
  const adopted: string[] = [];
  const accountCreate = open.find((intent) => intent.operations.some((op) => op.kind === 'account' && op.action === 'create'));
  if (accountId === undefined && accountCreate !== undefined) {
    const candidates = await createdAccountCandidates(api, accountCreate.at, await store.otherBoundAccounts(state.account));
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
      // a serving object created paused was held by that apply for an activation it never sent
      // (an explicit PAUSED in the manifest is compared as written, so the mark changes nothing then)
      const serving = isResourceKind(create.kind) ? KINDS[create.kind].serving : undefined;
      const held = serving !== undefined && create.params[serving.field] === serving.paused;
      state.resources[address] = { kind: create.kind, id, applied: create.params, ...(held ? { held: true } : {}) };
      adopted.push(address);
    });
  }
  absorbJournal(state, journal.head?.journal);
  // outcomes alone leave the serial as a plan of the loaded state saw it; adoption moves it on
  if (open.length === 0) await store.checkpoint(state, 'recover', true);
  else await store.write(state, 'recover');
  await store.clearJournal(state.account);
  return adopted;
}
