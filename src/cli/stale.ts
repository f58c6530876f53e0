/**
 * Whether a saved plan still describes the accounts: the state of each account must be the one
 * the plan was made against, and every live object the plan touches must still carry the
 * fingerprint it had. Returns what moved, by address.
 */
import { fetchFingerprints } from '../live/fingerprints.js';
import { formatAddress } from '../manifest/address.js';
import type { Plan } from '../plan/types.js';
import type { AccountSession } from './session.js';

export async function staleObjects(plan: Plan, sessions: readonly AccountSession[]): Promise<string[]> {
  const out: string[] = [];
  for (const account of plan.accounts) {
    const session = sessions.find((s) => s.key === account.account);
    if (session === undefined) continue;
    if (session.state.serial !== account.stateSerial) {
      out.push(`the state of account ${account.account} (serial ${account.stateSerial} when planned, ${session.state.serial} now)`);
      continue;
    }
    if (session.accountId === undefined) continue;
    const idsByKind = new Map<string, string[]>();
    const addressOf = new Map<string, string>();
    const kindOf = new Map<string, string>();
    for (const change of account.changes) {
      if (change.id === undefined || account.fingerprints[change.id] === undefined) continue;
      const list = idsByKind.get(change.kind) ?? [];
      list.push(change.id);
      idsByKind.set(change.kind, list);
      addressOf.set(change.id, formatAddress(change.address));
      kindOf.set(change.id, change.kind);
    }
    const now = await fetchFingerprints(session.api, session.accountId, idsByKind);
    for (const [id, fingerprint] of Object.entries(account.fingerprints)) {
      const kind = kindOf.get(id);
      if (kind === 'targeting_criterion' || kind === 'account_feature') continue;
      const current = now.get(id);
      if (current !== fingerprint) out.push(`${addressOf.get(id) ?? id} (${current === undefined ? 'deleted' : `updated at ${current}`})`);
    }
  }
  return out;
}
