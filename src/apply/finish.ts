/**
 * Finishing an apply, once no more requests go out: operations never sent are counted; resources
 * implied by a delete that happened, and those the plan says are gone or released, leave the
 * state; a resource left unchanged is recorded as the plan saw it. Then the final checkpoint: with
 * no intent still open it holds every outcome, says it absorbed the journal, and the journal goes;
 * otherwise the journal keeps the open intents for the next run to look up.
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

/** Settles the state after the last request, writes the final checkpoint, and returns what the apply did. */
export async function finishApply(run: ApplyRun): Promise<ApplyResult> {
  const { result } = run.tally;
  result.notStarted = run.tally.total - run.tally.settled;
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
  if (seen === undefined) delete run.state.unmanaged_seen;
  else run.state.unmanaged_seen = seen;
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
    run.state.resources[address] = unchangedEntry(change, change.id, run.state.resources[address], run.state);
  }
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
  };
}

/** Whether the object of `change` already serves on the service (its owed activation, if any, is done). */
function servesLive(change: ResourceChange): boolean {
  const serving = KINDS[change.kind].serving;
  return serving !== undefined && change.before?.[serving.field] === serving.active;
}

/** The final checkpoint; with nothing open it holds every outcome, says so, and the journal goes. */
async function checkpointFinal(run: ApplyRun): Promise<void> {
  const { state, journal, store } = run;
  state.serial++;
  const finished = journal.openEntries === 0;
  if (finished) journal.absorbInto(state);
  await store.checkpoint(state, run.checkpoints.operation, true);
  if (finished) await store.clearJournal(run.plan.account);
  else await journal.compact(state.serial);
}
