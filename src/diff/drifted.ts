/**
 * The drifted objects of an account whose account history can say who made the drift
 * (docs/architecture.md, "Who changed it"): a resource with a field changed outside adsctl, a
 * member of an owned collection added by hand (`added_outside`), an object deleted by hand
 * (`deleted_outside`, named by the id the state bound it to), and an object adsctl does not
 * manage that appeared since the last apply — each of a kind whose descriptor names its
 * `history` entity type, each since adsctl last recorded it (`recorded_at` of its state entry).
 * Pure: the engine reads their history (src/live/attribution.ts) and hands the answer back here
 * to be put on the changes.
 */
import { KINDS } from '../kinds/registry.js';
import { subjectKey, type AttributionRead, type ChangeAttribution, type HistorySubject } from '../live/attribution.js';
import { formatAddress } from '../manifest/address.js';
import type { AccountState } from '../state/state-file.js';
import type { ResourceChange } from './types.js';
import type { UnmanagedObject } from './unmanaged.js';

/** Whether the change records something done outside adsctl. */
function isDrifted(change: ResourceChange): boolean {
  return change.drift || change.reason === 'deleted_outside' || change.reason === 'added_outside';
}

function changeSubject(change: ResourceChange, state: AccountState): HistorySubject | undefined {
  const entity = KINDS[change.kind].history;
  if (entity === undefined || !isDrifted(change)) return undefined;
  const entry = state.resources[formatAddress(change.address)];
  const id = change.id ?? entry?.id;
  if (id === undefined) return undefined;
  const since = entry?.recorded_at === undefined ? NaN : Date.parse(entry.recorded_at);
  return Number.isFinite(since) ? { entity, id, since: new Date(since) } : { entity, id };
}

function unmanagedSubject(u: UnmanagedObject, state: AccountState): HistorySubject | undefined {
  const entity = KINDS[u.kind].history;
  if (entity === undefined || !u.new) return undefined;
  // new since the record of what was seen last changed
  const since = state.unmanaged_seen_at === undefined ? NaN : Date.parse(state.unmanaged_seen_at);
  return Number.isFinite(since) ? { entity, id: u.id, since: new Date(since) } : { entity, id: u.id };
}

/** The objects whose history says who drifted them, each once, in plan order. */
export function driftedSubjects(changes: readonly ResourceChange[], unmanaged: readonly UnmanagedObject[], state: AccountState): HistorySubject[] {
  const all = [...changes.map((c) => changeSubject(c, state)), ...unmanaged.map((u) => unmanagedSubject(u, state))].filter((s): s is HistorySubject => s !== undefined);
  return [...new Map(all.map((s) => [subjectKey(s.entity, s.id), s])).values()];
}

/** The changes and unmanaged objects with what the history said of each put on it (objects not read are left as they are). */
export function withAttribution(
  changes: readonly ResourceChange[],
  unmanaged: readonly UnmanagedObject[] | undefined,
  state: AccountState,
  read: AttributionRead,
): { changes: ResourceChange[]; unmanaged: UnmanagedObject[] | undefined } {
  const found = (s: HistorySubject | undefined): ChangeAttribution[] | undefined => (s === undefined ? undefined : read.byObject.get(subjectKey(s.entity, s.id)));
  return {
    changes: changes.map((c) => {
      const attribution = found(changeSubject(c, state));
      return attribution === undefined ? c : { ...c, attribution };
    }),
    unmanaged: unmanaged?.map((u) => {
      const attribution = found(unmanagedSubject(u, state));
      return attribution === undefined ? u : { ...u, attribution };
    }),
  };
}
