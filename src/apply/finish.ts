/**
 * Finishing an apply, once no more requests go out: operations never sent are counted; resources
 * implied by a delete that happened, and those the plan says are gone or released, leave the
 * state; a resource left unchanged is recorded as the plan saw it, its entry kept as it was when
 * that says nothing new. Then the final checkpoint: with no intent still open it holds every
 * outcome, says it absorbed the journal, and the journal goes; otherwise the journal keeps the open
 * intents for the next run to look up. An apply that sent nothing opened no journal: it writes the
 * state (with a new serial and a kept version) only when the plan's record changed it, so a no-op
 * apply writes nothing at all.
 */
import type { ResourceChange } from '../diff/types.js';
import { seenRecord } from '../diff/unmanaged.js';
import { KINDS } from '../kinds/registry.js';
import { formatAddress } from '../manifest/address.js';
import type { AccountState, StateResource } from '../state/state-file.js';
import type { ApplyResult } from './events.js';
import { forget, forgotten } from './forget.js';
import { asApplied } from './record.js';
import { resolveRefs } from './resolve.js';
import type { ApplyRun } from './run.js';
import { stateDigest } from './state-digest.js';

/** Settles the state after the last request, writes the final checkpoint, and returns what the apply did. */
export async function finishApply(run: ApplyRun): Promise<ApplyResult> {
  const { result, total, sent } = run.tally;
  result.sent = sent.size;
  result.notStarted = total - sent.size - result.skipped;
  forgetImplied(run);
  settleUnchanged(run);
  recordUnmanaged(run);
  await checkpointFinal(run);
  await forgotten(run);
  return result;
}

/**
 * Records the objects the plan found not managed by adsctl as seen at this apply (with the ones
 * it releases or its `removed` entries name, which leave the state now and stay live), so the
 * next plan lists them without calling them drift; a plan that did not look leaves the record as
 * it was.
 */
function recordUnmanaged(run: ApplyRun): void {
  if (run.plan.unmanaged === undefined) return;
  const released = run.plan.changes.flatMap((c) => (c.reason === 'released' && c.id !== undefined ? [{ kind: c.kind, id: c.id }] : []));
  for (const r of run.plan.removals ?? []) if (r.id !== undefined) released.push({ kind: r.kind, id: r.id });
  const seen = seenRecord(run.plan.unmanaged, released);
  // the time stays while the record does: nothing new was seen since (set once where it is missing)
  if (JSON.stringify(seen) === JSON.stringify(run.state.unmanaged_seen) && run.state.unmanaged_seen_at !== undefined) return;
  if (seen === undefined) delete run.state.unmanaged_seen;
  else run.state.unmanaged_seen = seen;
  run.state.unmanaged_seen_at = new Date(run.now()).toISOString();
}

/** Drops the resources implied by a delete this apply made (the plan's `implied`), counting each as destroyed. */
function forgetImplied(run: ApplyRun): void {
  for (const { address, by } of run.plan.implied) {
    if (run.tally.deleted.has(by) && run.state.resources[address] !== undefined) {
      forget(run, address);
      run.tally.result.destroyed++;
    }
  }
}

/** Records the plan's unchanged resources: forgotten when gone or released, else bound as the plan saw them. */
function settleUnchanged(run: ApplyRun): void {
  for (const change of run.plan.changes) {
    if (change.action !== 'noop') continue;
    const address = formatAddress(change.address);
    if (change.reason === 'deleted_outside' || change.reason === 'released') {
      forget(run, address);
      continue;
    }
    if (change.id === undefined) continue;
    const previous = run.state.resources[address];
    const entry = unchangedEntry(change, change.id, previous, run.state);
    if (previous === undefined || !saysAll(previous, entry)) run.state.resources[address] = entry;
  }
}

/** `value` as JSON with the members of every object in name order: equal values, equal text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

/** Whether two applied values are the same value (objects compared by their canonical JSON). */
const sameValue = (a: unknown, b: unknown): boolean => a === b || (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && canonical(a) === canonical(b));

/**
 * Whether the state entry `previous` already says all that `entry`, its unchanged resource as the
 * plan saw it, says: the same object and marks, and each value `entry` records applied. Values
 * recorded beside those (what a create sent that the manifest leaves to the service) stay.
 */
function saysAll(previous: StateResource, entry: StateResource): boolean {
  if (previous.kind !== entry.kind || previous.id !== entry.id) return false;
  if ((previous.protected === true) !== (entry.protected === true) || (previous.held === true) !== (entry.held === true)) return false;
  return Object.entries(entry.applied).every(([field, value]) => Object.hasOwn(previous.applied, field) && sameValue(previous.applied[field], value));
}

/** What the state holds for an unchanged resource bound to `id`, given what it held (`previous`). */
function unchangedEntry(change: ResourceChange, id: string, previous: StateResource | undefined, state: AccountState): StateResource {
  const after = resolveRefs(change.after ?? {}, state);
  return {
    kind: change.kind,
    id,
    applied: after.ok ? asApplied(change.kind, after.values) : (previous?.applied ?? {}),
    ...(change.protected ? { protected: true } : {}),
    ...(previous?.created === true ? { created: true } : {}),
    ...(previous?.held === true && !servesLive(change) ? { held: true } : {}),
    // nothing was written to it: what was done to it outside adsctl still counts from when it was
    ...(previous?.recorded_at === undefined ? {} : { recorded_at: previous.recorded_at }),
  };
}

/** Whether the object of `change` already serves on the service (its owed activation, if any, is done). */
function servesLive(change: ResourceChange): boolean {
  const serving = KINDS[change.kind].serving;
  return serving !== undefined && change.before?.[serving.field] === serving.active;
}

/**
 * The final checkpoint; with nothing open it holds every outcome, says so, and the journal goes.
 * With no journal opened (nothing sent), the state is written as a new version only when it is not
 * the state the run found.
 */
async function checkpointFinal(run: ApplyRun): Promise<void> {
  const { state, store } = run;
  const journal = run.journalOpened();
  if (journal === undefined) {
    if (run.found !== undefined && stateDigest(state) === run.found) return;
    await store.write(state, run.checkpoints.operation);
    return;
  }
  state.serial++;
  const finished = journal.openEntries === 0;
  if (finished) journal.absorbInto(state);
  await store.checkpoint(state, run.checkpoints.operation, true);
  if (finished) await store.clearJournal(run.plan.account);
  else await journal.compact(state.serial);
}
