/**
 * Recognising objects whose creates had no answer, by each kind's descriptor (`find`): re-read the
 * candidates under the parents the creates name and pick, for each, the one whose identifying
 * fields equal what was sent, created no earlier than the request (less a minute of clock skew),
 * and not already bound to another address.
 */
import type { AdsApi } from '../api/ads-api.js';
import type { FindSpec } from '../kinds/descriptor.js';
import { matchesCreate } from '../kinds/find-match.js';
import { isResourceKind, KINDS } from '../kinds/registry.js';

/** How a create of `kind` is found again (its descriptor's `find`), if it can be. */
function finderOf(kind: string): FindSpec | undefined {
  return isResourceKind(kind) ? KINDS[kind].find : undefined;
}

/** The key all creates of a kind listed over the whole account share. */
const WHOLE = '';

const SKEW_MS = 60_000;

/** A create whose answer never came: its kind, the parameters sent, and when (epoch ms). */
export interface SentCreate {
  kind: string;
  params: Record<string, unknown>;
  sentAt: number;
}

const parentOf = (create: SentCreate): string | undefined => {
  const finder = finderOf(create.kind);
  if (finder === undefined) return undefined;
  if (finder.filter === undefined) return WHOLE;
  const parent = create.params[finder.filter[1]];
  return parent === undefined || parent === null ? undefined : String(parent);
};

/**
 * The ids of the objects `creates` made, where the service has them (undefined where it does
 * not, or for kinds it cannot recognise), in the order of `creates`. The candidates of a kind are
 * listed once under every parent its creates name (200 parents a request), so resolving a whole
 * lost batch, or a journal of hundreds of creates, costs a request or two per kind rather than one
 * per create. `taken` holds the ids already bound in state; each id found is added to it, so two
 * identical creates never resolve to the same object.
 */
export async function findCreatedAll(api: AdsApi, accountId: string, creates: readonly SentCreate[], taken: Set<string>): Promise<Array<string | undefined>> {
  const parents = new Map<string, Set<string>>();
  for (const create of creates) {
    const parent = parentOf(create);
    if (parent === undefined) continue;
    const set = parents.get(create.kind) ?? new Set<string>();
    set.add(parent);
    parents.set(create.kind, set);
  }
  const candidates = new Map<string, Array<Record<string, unknown>>>();
  await Promise.all(
    [...parents].map(async ([kind, ids]) => {
      const finder = finderOf(kind)!;
      const records =
        finder.filter === undefined
          ? await api.list(finder.resource, accountId, finder.flags ?? {})
          : await api.listWhere(finder.resource, accountId, finder.filter[0], [...ids], finder.flags ?? {});
      candidates.set(kind, records as unknown as Array<Record<string, unknown>>);
    }),
  );
  return creates.map((create) => {
    const finder = finderOf(create.kind);
    if (finder === undefined || parentOf(create) === undefined) return undefined;
    const { kind, params, sentAt } = create;
    const match = (candidates.get(kind) ?? []).find((r) => {
      if (taken.has(String(r['id']))) return false;
      if (Date.parse(String(r['created_at'])) < sentAt - SKEW_MS) return false;
      return matchesCreate(finder, r, params);
    });
    if (match === undefined) return undefined;
    taken.add(String(match['id']));
    return String(match['id']);
  });
}

/**
 * The sandbox accounts a `POST accounts` with no answer may have made: it takes no parameters, so
 * the candidates are the caller's accounts created since the request that no state of these
 * manifests binds. None: it did not happen; one: that is it; more: it cannot be told.
 */
export async function createdAccountCandidates(api: AdsApi, sentAt: number, bound: ReadonlySet<string>): Promise<string[]> {
  return (await api.accounts()).filter((a) => !bound.has(a.id) && Date.parse(a.created_at) >= sentAt - SKEW_MS).map((a) => a.id);
}
