/**
 * Refresh (`fetchLiveState`): reads what the manifests and the state cover, at the least request
 * count, each kind the way its descriptor says (src/kinds/, `read`) — list endpoints at their
 * largest page, id filters of 200 in parallel, nothing for kinds no one mentions — and notices
 * bound objects deleted outside adsctl (they are simply absent: deleted records are never
 * listed). No read waits for another it does not need (docs/architecture.md, step 4 of
 * "Stages"). Read-only.
 */
import type { AdsApi } from '../api/ads-api.js';
import { ApiError } from '../api/errors.js';
import { ADOPTING_PARENTS } from '../kinds/adoption.js';
import type { ReadSpec } from '../kinds/descriptor.js';
import { DESCRIPTORS, kindDependencies, KINDS } from '../kinds/registry.js';
import type { DesiredAccount, ResourceKind } from '../manifest/types.js';
import type { AccountState } from '../state/state-file.js';
import { fingerprintOf } from './fingerprint.js';
import { adoptingParents, readAdoptedChildren, type AdoptingParents } from './adopted-reads.js';
import { readNeeds } from './read-plan.js';
import type { LiveAccount, LiveResource } from './types.js';

/**
 * Up to this many bound ids a kind is read through its id filter (one request per 200); beyond
 * it, the whole account's list is cheaper per record (one request per 1,000).
 */
const ID_FILTER_MAX = 600;

function put(live: LiveAccount, kind: ResourceKind, record: Record<string, unknown>, idField = 'id'): void {
  if (record['deleted'] === true) return;
  const id = String(record[idField]);
  let byId = live.resources.get(kind);
  if (byId === undefined) {
    byId = new Map();
    live.resources.set(kind, byId);
  }
  byId.set(id, new FetchedResource(kind, id, record));
}

/** A record as read, its fingerprint hashed when asked for: a plan needs it of the objects it changes only. */
class FetchedResource implements LiveResource {
  constructor(
    readonly kind: ResourceKind,
    readonly id: string,
    readonly record: Record<string, unknown>,
  ) {}

  get fingerprint(): string {
    return fingerprintOf(this.record);
  }
}

interface FetchInput {
  api: AdsApi;
  /** The account key (manifest and state). */
  account: string;
  /** The live account id; undefined when the account does not exist yet (sandbox create). */
  accountId: string | undefined;
  desired: DesiredAccount | undefined;
  state: AccountState;
  /** Read what the plan lists as not managed by adsctl (src/diff/unmanaged.ts); see `readUnmanaged`. */
  unmanaged?: boolean;
}

type ListRead = Extract<ReadSpec, { via: 'list' }>;

/** Whether a kind under parents is read as the account's whole list rather than filtered by its parents' ids. */
function readsWhole(spec: ListRead, parents: number): boolean {
  return spec.required !== true && parents > ID_FILTER_MAX;
}

/**
 * The records of one listed kind: whole, by bound ids, or by bound parents (`parents`; the whole
 * list when there are many and the filter is not required, to be filtered by the caller).
 */
function readList(api: AdsApi, accountId: string, spec: ListRead, bound: ReadonlySet<string>, parents: readonly string[]): Promise<unknown[]> {
  const flags = spec.flags ?? {};
  if (spec.scope === 'whole') return api.list(spec.resource, accountId, flags);
  if (spec.scope === 'parent') {
    if (parents.length === 0) return Promise.resolve([]);
    return readsWhole(spec, parents.length) ? api.list(spec.resource, accountId, flags) : api.listWhere(spec.resource, accountId, spec.parentParam ?? '', parents, flags);
  }
  if (bound.size === 0) return Promise.resolve([]);
  return bound.size <= ID_FILTER_MAX ? api.listWhere(spec.resource, accountId, spec.idsParam, [...bound], flags) : api.list(spec.resource, accountId, flags);
}

/**
 * Adds the reads that find the objects spending in the account without adsctl (the kinds that
 * serve: campaigns, line items), at their minimum: a kind under the account is read in full, as
 * its descriptor lists it (one paginated list; nothing more when the manifest or the state
 * already has it read), because an object no one binds can only be found in the whole list; a
 * kind under another serving kind only when some of those parents are bound, since only the
 * children of managed parents are listed (unmanaged parents are listed with theirs; whether one
 * of those serves needs its children, read after it only when it is active:
 * `readUnmanagedChildren`).
 */
function readUnmanaged(kinds: Map<ResourceKind, Set<string>>): void {
  for (const d of DESCRIPTORS) {
    if (d.serving === undefined || d.parent === undefined || kinds.has(d.kind)) continue;
    const underAccount = KINDS[d.parent].parent === undefined;
    if (underAccount || (kinds.get(d.parent)?.size ?? 0) > 0) kinds.set(d.kind, new Set());
  }
}

/** Whether a kind's records are read without waiting for another kind's (a list not under parents, or an own reader under the account). */
function readFirst(kind: ResourceKind): boolean {
  const { read, parent } = KINDS[kind];
  if (read.via === 'list') return read.scope !== 'parent';
  return read.via !== 'custom' || parent === undefined || parent === 'account';
}

/**
 * The reads, after the parents, of the serving children that tell whether an unmanaged parent
 * serves (src/plan/serving-spend.ts, `liveServes`): a kind listed whole that `readUnmanaged` left
 * out because no parent of it is bound, when some parent it sits under is active; none otherwise.
 */
function readUnmanagedChildren(api: AdsApi, accountId: string, live: LiveAccount, kinds: ReadonlyMap<ResourceKind, Set<string>>): Array<() => Promise<void>> {
  const reads: Array<() => Promise<void>> = [];
  for (const d of DESCRIPTORS) {
    const spec = d.read;
    const parent = d.parent === undefined ? undefined : KINDS[d.parent].serving;
    if (d.serving === undefined || parent === undefined || kinds.has(d.kind) || spec.via !== 'list' || spec.scope !== 'whole') continue;
    const records = live.resources.get(d.parent as ResourceKind)?.values() ?? [];
    if (![...records].some((r) => r.record[parent.field] === parent.active)) continue;
    reads.push(async () => (await api.list(spec.resource, accountId, spec.flags ?? {})).forEach((r) => put(live, d.kind, r as Record<string, unknown>)));
  }
  return reads;
}

/** Reads the live state one account's plan needs. */
export async function fetchLiveState(input: FetchInput): Promise<LiveAccount> {
  const { api, accountId } = input;
  const live: LiveAccount = { account: input.account, accountId, currencies: {}, resources: new Map(), missing: new Set() };
  if (accountId === undefined) return live;
  const needs = readNeeds(input.desired, input.state);
  // the members of an owned collection are read whenever their parent kind is managed
  for (const d of DESCRIPTORS) if (d.owned && d.parent !== undefined && needs.kinds.has(d.parent) && !needs.kinds.has(d.kind)) needs.kinds.set(d.kind, new Set());
  if (input.unmanaged === true) readUnmanaged(needs.kinds);
  // a kind read whole is read when a kind that sits under it or refers to it is
  for (const d of DESCRIPTORS) {
    if (!needs.kinds.has(d.kind)) continue;
    for (const dep of kindDependencies(d)) {
      const read = KINDS[dep].read;
      if (read?.via === 'list' && read.scope === 'whole' && !needs.kinds.has(dep)) needs.kinds.set(dep, new Set());
    }
  }
  // the account is read beside everything else: when it is gone, the other reads fail with it and
  // are of no interest; when it is there, their failures are the refresh's
  let accountGone = false;
  const reads: Array<Promise<void>> = [];
  const underBound: Array<() => Promise<() => void>> = [];
  const later: Array<() => Promise<void>> = [];
  // the objects whose children an import adopts are read under like bound ones (adopted-reads.ts)
  let adopting: AdoptingParents = new Map();
  const adopts = (input.desired?.resources ?? []).some((r) => r.importId !== undefined && ADOPTING_PARENTS.has(r.kind));
  const parentIds = (kind: ResourceKind): string[] => [...new Set([...(needs.kinds.get(kind) ?? []), ...(adopting.get(kind) ?? [])])];
  for (const d of DESCRIPTORS) {
    const spec = d.read;
    const bound = needs.kinds.get(d.kind);
    if (spec.via === 'account') {
      reads.push(
        api.account(accountId).then(
          (record) => put(live, d.kind, record as unknown as Record<string, unknown>),
          (error: unknown) => {
            // an account deleted outside adsctl (or by a destroy) is absent, like any other object
            if (!(error instanceof ApiError) || error.status !== 404) throw error;
            accountGone = true;
          },
        ),
      );
    } else if (spec.via === 'features') {
      if (bound !== undefined) reads.push(api.features(accountId).then((keys) => keys.forEach((key) => put(live, d.kind, { id: key, feature_key: key }))));
    } else if (spec.via === 'custom') {
      if (bound === undefined) continue;
      const parent = d.parent;
      const store = (records: Array<Record<string, unknown>>): void => records.forEach((r) => put(live, d.kind, r, spec.idField));
      if (parent === undefined || parent === 'account') reads.push(spec.read(api, accountId, { bound, parents: [] }).then(store));
      else {
        // after the parents: a nested endpoint is read only under parents that exist
        later.push(async () => store(await spec.read(api, accountId, { bound, parents: parentIds(parent).filter((id) => live.resources.get(parent)?.has(id) === true) })));
      }
    } else if (bound !== undefined || spec.always === true) {
      const store = (records: unknown[]): void => records.forEach((r) => put(live, d.kind, r as Record<string, unknown>));
      if (spec.scope !== 'parent') reads.push(readList(api, accountId, spec, bound ?? new Set(), []).then(store));
      else if (d.parent !== undefined && ((bound?.size ?? 0) > 0 || d.owned)) {
        const parent = d.parent;
        const parentField = d.parentField ?? '';
        // only the children of bound parents that exist: the account may hold many that adsctl does not manage
        const existing = (): Set<string> =>
          new Set(
            parentIds(parent).filter((id) => {
              const record = live.resources.get(parent)?.get(id)?.record;
              return record !== undefined && (spec.parentWhere?.(record) ?? true);
            }),
          );
        const keep = (records: unknown[], wanted: ReadonlySet<string>): unknown[] => records.filter((r) => wanted.has(String((r as Record<string, unknown>)[parentField])));
        if (!adopts && spec.parentWhere === undefined && readFirst(parent)) {
          // the filter needs only the parents' ids, which the state holds: read at once, beside
          // the parents, and keep the children of those that exist once the parents are read
          const read = (): Promise<() => void> => readList(api, accountId, spec, new Set(), parentIds(parent)).then((records) => () => store(keep(records, existing())));
          // a list read whole is one long chain of pages; chunks of ids are short ones: chains first
          if (readsWhole(spec, parentIds(parent).length)) underBound.unshift(read);
          else underBound.push(read);
        } else {
          later.push(async () => {
            const wanted = existing();
            store(keep(await readList(api, accountId, spec, new Set(), [...wanted]), wanted));
          });
        }
      }
    }
  }
  // every read is waited for, failed or not, before it is known whether the account is gone;
  // those under bound parents are started after the whole lists, whose first pages go out first
  const listed = Promise.allSettled(reads);
  const stored = Promise.allSettled(underBound.map((read) => Promise.all([read(), listed]).then(([store]) => store())));
  const settled = [...(await listed), ...(await stored)];
  if (accountGone) {
    live.resources.clear();
    live.missing.add(accountId);
    live.accountId = undefined;
    return live;
  }
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  adopting = adoptingParents(input.desired, live);
  if (adopting.size > 0) {
    later.push(async () => {
      for (const [kind, records] of await readAdoptedChildren(api, accountId, new Set(needs.kinds.keys()), adopting)) records.forEach((r) => put(live, kind, r));
    });
  }
  if (input.unmanaged === true) later.push(...readUnmanagedChildren(api, accountId, live, needs.kinds));
  await Promise.all(later.map((read) => read()));
  // the kinds read always are the funding instruments, whose currencies every amount is in
  for (const d of DESCRIPTORS) {
    if (d.read.via !== 'list' || d.read.always !== true) continue;
    for (const r of live.resources.get(d.kind)?.values() ?? []) if (typeof r.record['currency'] === 'string') live.currencies[r.id] = r.record['currency'];
  }
  for (const [kind, ids] of needs.kinds) {
    const found = live.resources.get(kind);
    for (const id of ids) if (found?.has(id) !== true) live.missing.add(id);
  }
  return live;
}
