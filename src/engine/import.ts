/**
 * Import (Terraform's Context.Import): binds an existing live object to an address of the
 * manifest, so that the next plan compares instead of creating. The object must exist on the
 * service and be of the address's kind. The import of a campaign, a line item or a custom
 * audience also binds the live children the manifest declares under it, matched by identity
 * (docs/architecture.md, "Imports adopt children"): the diff of the import's scope says which
 * (src/diff/import-bindings.ts), and all of them are written to state at once, or none.
 */
import type { AdsApi } from '../api/ads-api.js';
import { ApiError } from '../api/errors.js';
import type { Diagnostic } from '../diag/diagnostic.js';
import { diffResources } from '../diff/diff.js';
import { adoptedEntries, bindingProblems, importedEntry, importScope, scopedState } from '../diff/import-bindings.js';
import { ADOPTING_PARENTS } from '../kinds/adoption.js';
import type { ResourceKind } from '../kinds/kind.js';
import { KINDS } from '../kinds/registry.js';
import { fetchLiveState } from '../live/fetch.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount } from '../manifest/types.js';
import type { StateResource } from '../state/state-file.js';
import type { AccountSession } from './accounts.js';

/** How an import ended: bound, with the children it adopted; or refused, with why (and the problems that stopped it). */
type ImportOutcome = { bound: string; adopted: Array<{ address: string; id: string }> } | { refused: string; problems?: Diagnostic[] };

/** Why `kind` cannot be imported by id (it is bound through the manifest instead); undefined when it can. */
export function importRefusal(kind: ResourceKind, address: string): string | undefined {
  const importing = KINDS[kind].import;
  return importing.via === 'manifest' ? `${address} cannot be imported with adsctl import: ${importing.hint}` : undefined;
}

/** The live record of `kind` with `id`, read through the kind's own reader; undefined when there is none. */
async function readOne(kind: ResourceKind, api: AdsApi, accountId: string, id: string): Promise<Record<string, unknown> | undefined> {
  const read = KINDS[kind].read;
  if (read.via !== 'custom') return undefined;
  const records = await read.read(api, accountId, { bound: new Set([id]), parents: [] });
  return records.find((r) => String(r[read.idField ?? 'id']) === id && r['deleted'] !== true);
}

/**
 * The bindings of the children the manifest declares under `address` (bound to `id`) that exist
 * live, from a refresh and diff of the import's scope alone; with the problems that stop the
 * import (a child matching several live objects, an object bound twice).
 */
async function adoptChildren(session: AccountSession, desired: DesiredAccount, address: string, id: string): Promise<{ entries: Record<string, StateResource>; problems: Diagnostic[] }> {
  const scope = importScope(desired, address, id);
  const prefix = `${address}.`;
  if (!scope.resources.some((r) => formatAddress(r.address).startsWith(prefix))) return { entries: {}, problems: [] };
  const state = scopedState(session.state, scope);
  const live = await fetchLiveState({ api: session.api, account: session.key, accountId: session.accountId, desired: scope, state });
  const diff = diffResources({ desired: scope, live, state, mode: 'plan' });
  return { entries: adoptedEntries(diff.value ?? [], scope, live, state, address), problems: bindingProblems(diff.diagnostics) };
}

/** Binds live object `id` of `kind` to `address` of `desired` in the session's state, with the children it adopts, and writes the state. */
export async function importObject(session: AccountSession, desired: DesiredAccount, address: string, kind: ResourceKind, id: string): Promise<ImportOutcome> {
  const accountId = session.accountId;
  if (accountId === undefined) return { refused: `account ${desired.key} does not exist yet: apply it before importing into it` };
  const existing = session.state.resources[address];
  if (existing !== undefined) return { refused: `${address} is already bound to ${existing.id}; use adsctl state rm first to bind it to another object` };
  try {
    const importing = KINDS[kind].import;
    const record = importing.via === 'get' ? ((await session.api.get(importing.resource, accountId, id)) as unknown as Record<string, unknown>) : await readOne(kind, session.api, accountId, id);
    if (record === undefined) return { refused: `cannot import ${id} as ${address}: the account has no ${KINDS[kind].noun} ${id}` };
    const manifested = desired.resources.find((r) => formatAddress(r.address) === address);
    const read = KINDS[kind].read;
    const idField = read.via === 'custom' ? (read.idField ?? 'id') : 'id';
    const boundId = String(record[idField]);
    const children = ADOPTING_PARENTS.has(kind) ? await adoptChildren(session, desired, address, boundId) : { entries: {}, problems: [] };
    if (children.problems.length > 0) return { refused: `${address} was not imported, and nothing was written: what it adopts cannot be bound (above)`, problems: children.problems };
    session.state.resources[address] = importedEntry(kind, manifested, record, boundId, session.clock.now().toISOString());
    Object.assign(session.state.resources, children.entries);
    await session.store.write(session.state, 'import');
    return { bound: address, adopted: Object.entries(children.entries).map(([a, e]) => ({ address: a, id: e.id })) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { refused: `cannot import ${id} as ${address}: ${error.describe()}` };
  }
}
