/**
 * Whether a saved plan still describes the accounts, decided without I/O: the state of each
 * account must be the one the plan was made against (same serial), and every live object the plan
 * touches must still carry the fingerprint it had when planned. The CLI re-reads the objects
 * `fingerprintTargets` names and passes what it found; this module says what moved.
 */
import { formatAddress } from '../manifest/address.js';
import { KINDS } from '../kinds/registry.js';
import type { ResourceKind } from '../manifest/types.js';
import type { AccountPlan, Plan } from './types.js';

/**
 * One reason a saved plan is stale: the account's state was written since the plan was made
 * (another apply, an import, a `state mv`), or a live object the plan touches moved or is gone.
 */
export type StaleEntry = StaleState | StaleObject;

/** The state of an account was written since the plan was made. */
interface StaleState {
  kind: 'state';
  account: string;
  planned: number;
  now: number;
}

/** A live object the plan touches moved (`now` is its current fingerprint) or is gone (`now` undefined). */
interface StaleObject {
  kind: 'object';
  account: string;
  address: string;
  id: string;
  planned: string;
  now: string | undefined;
}

/**
 * Whether a kind's fingerprints are recorded and re-read: not for kinds that cannot be read by
 * their own ids (features, targeting criteria; kinds read under their parents, whose live id may
 * be the parent's, as a membership's is), which have no update either — a change deletes and
 * recreates them, or resends what the plan names — so a moved one cannot make an update
 * overwrite someone else's edit.
 */
export function checked(kind: ResourceKind): boolean {
  const read = KINDS[kind].read;
  if (read.via === 'custom') return (KINDS[kind].parent ?? 'account') === 'account';
  return read.via === 'account' || (read.via === 'list' && read.required !== true);
}

interface Touched {
  address: string;
  kind: ResourceKind;
}

/** The objects of an account plan that carry a fingerprint, by id (kinds in `UNCHECKED` left out). */
function touchedObjects(account: AccountPlan): Map<string, Touched> {
  const touched = new Map<string, Touched>();
  for (const change of account.changes) {
    if (change.id === undefined || account.fingerprints[change.id] === undefined || !checked(change.kind)) continue;
    touched.set(change.id, { address: formatAddress(change.address), kind: change.kind });
  }
  return touched;
}

/**
 * The ids of the live objects whose fingerprints must be re-read to check one account's saved
 * plan, grouped by kind (each kind's ids in plan order).
 */
export function fingerprintTargets(account: AccountPlan): Map<ResourceKind, string[]> {
  const byKind = new Map<ResourceKind, string[]>();
  for (const [id, { kind }] of touchedObjects(account)) {
    const ids = byKind.get(kind);
    if (ids === undefined) byKind.set(kind, [id]);
    else ids.push(id);
  }
  return byKind;
}

/**
 * What moved since `plan` was made. `serials` holds the current state serial of each account key
 * (an account without one was not opened and is not checked); `fingerprints` the current
 * fingerprint of every object `fingerprintTargets` named that still exists (an absent id was
 * deleted). An account whose state moved is reported by its serial alone: its objects were
 * planned against another state, so comparing them says nothing more. Entries come in the plan's
 * account order, objects sorted by address; an empty list means the plan may be applied.
 */
export function staleEntries(plan: Plan, serials: Readonly<Record<string, number>>, fingerprints: ReadonlyMap<string, string>): StaleEntry[] {
  const out: StaleEntry[] = [];
  for (const account of plan.accounts) {
    const now = serials[account.account];
    if (now === undefined) continue;
    if (now !== account.stateSerial) {
      out.push({ kind: 'state', account: account.account, planned: account.stateSerial, now });
      continue;
    }
    const moved: StaleObject[] = [];
    for (const [id, { address }] of touchedObjects(account)) {
      const planned = account.fingerprints[id];
      const current = fingerprints.get(id);
      if (planned !== undefined && current !== planned) moved.push({ kind: 'object', account: account.account, address, id, planned, now: current });
    }
    moved.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
    out.push(...moved);
  }
  return out;
}
