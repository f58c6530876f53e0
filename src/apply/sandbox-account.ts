/**
 * The account a manifest without an account id asks adsctl to create, on a sandbox (or local)
 * endpoint: created before anything under it, journalled like every other write, and, when the
 * answer is lost, looked up among the accounts made since before it is created again.
 */
import type { AdsApi } from '../api/ads-api.js';
import { ApiError } from '../api/errors.js';
import type { Clock } from '../clock/clock.js';
import { KINDS } from '../kinds/registry.js';
import type { AccountPlan } from '../plan/types.js';
import { ApplyJournal, noChanges } from '../state/apply-journal.js';
import type { AccountState } from '../state/state-file.js';
import type { JournalStore, StateReader, StateWriter } from '../state/store.js';
import { createdAccountCandidates } from './find-created.js';

/** What creating the account works with: the account's live id (undefined until it exists), its state and where it is kept. */
interface AccountToEnsure {
  accountId: string | undefined;
  api: AdsApi;
  state: AccountState;
  store: StateReader & StateWriter & JournalStore;
  /** Whether the endpoint can create accounts (sandbox and local). */
  sandbox: boolean;
  /** The run's clock: when the create was sent, to find the account made by an answer that was lost. */
  clock: Clock;
}

/** Creates the sandbox account `accountPlan` asks for, when it has none; returns its id (undefined when it can have none). */
export async function ensureAccount(account: AccountToEnsure, accountPlan: AccountPlan): Promise<string | undefined> {
  if (account.accountId !== undefined) return account.accountId;
  const wantsAccount = accountPlan.changes.some((c) => KINDS[c.kind].address.key === 'root' && c.action === 'create');
  if (!wantsAccount || !account.sandbox) return undefined;
  const { store, state, api } = account;
  const journal = await ApplyJournal.open(store, state);
  const sentAt = account.clock.now().getTime();
  const seq = await journal.intend([{ address: 'account', kind: 'account', action: 'create', params: {} }], sentAt);
  let id: string;
  try {
    id = (await api.createSandboxAccount()).id;
  } catch (error) {
    if (!(error instanceof ApiError) || error.outcome !== 'unknown') throw error;
    // no answer: look before creating again, so a lost answer does not leave two accounts
    const candidates = await createdAccountCandidates(api, sentAt, await store.otherBoundAccounts(state.account));
    if (candidates.length > 1) throw new ApiError({ status: 0, items: [{ code: 'AMBIGUOUS', message: `creating the sandbox account had no answer and ${candidates.length} new accounts (${candidates.join(', ')}) could be it; bind the right one with account.id` }], retryable: false, outcome: 'unknown', request: 'POST /12/accounts' });
    id = candidates[0] ?? (await api.createSandboxAccount()).id;
  }
  account.accountId = id;
  state.account_id = id;
  state.serial++;
  await journal.close(seq, state.serial, { ...noChanges(), accountId: id });
  return id;
}
