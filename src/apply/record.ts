/**
 * Reading outcomes into state changes. A success binds its address (or, for a delete, drops it) in
 * the state and in `journalled`, what the journal's closing record of its request carries, and is
 * counted; a failure or a skip is counted with its reason and reported.
 */
import type { ResourceChange } from '../diff/types.js';
import type { ResourceKind } from '../kinds/kind.js';
import { KINDS } from '../kinds/registry.js';
import type { Operation } from '../plan/types.js';
import type { StateChanges } from '../state/apply-journal.js';
import type { AccountState, StateResource } from '../state/state-file.js';
import { resolveRefs } from './resolve.js';
import type { ApplyRun } from './run.js';

/** The values a successful write leaves applied: each as its rule records it (`FieldRule.appliedAs`). */
export function asApplied(kind: ResourceKind, values: Record<string, unknown>): Record<string, unknown> {
  const out = { ...values };
  for (const rule of KINDS[kind].attributes) if (rule.appliedAs !== undefined && out[rule.field] !== undefined) out[rule.field] = rule.appliedAs(out[rule.field]);
  return out;
}

/**
 * Whether `op` counts in the plan's totals: an operation of the plan's layers, not one that puts a
 * creative back (restore.ts), which is no operation of the plan.
 */
const planned = (op: Operation): boolean => op.phase !== 'restore';

/** Records that `op` succeeded (with the live `id` it created or named), answered `at` (epoch ms), in the state and in `journalled`. */
export function recordSuccess(run: ApplyRun, op: Operation, id: string, journalled: StateChanges, at: number): void {
  run.tally.succeeded.add(op.key);
  if (planned(op)) run.tally.result.applied++;
  if (op.action === 'delete') recordDelete(run, op, journalled);
  else recordWrite(run, op, id, journalled, at);
}

/** Records that `op` failed, with the service's `message`. */
export function recordFailure(run: ApplyRun, op: Operation, message: string): void {
  if (planned(op)) run.tally.result.refused++;
  const said = op.phase === 'restore' ? `it could not be put back: ${message}` : message;
  run.tally.result.errors.push({ address: op.address, message: said });
  run.emit({ type: 'failed', account: run.plan.account, address: op.address, message: said });
}

/** Records that `op` was not sent, `because` of what it waited for. */
export function recordSkip(run: ApplyRun, op: Operation, because: string): void {
  run.tally.result.skipped++;
  run.tally.result.errors.push({ address: op.address, message: `skipped: ${because}` });
  run.emit({ type: 'skipped', account: run.plan.account, address: op.address, because });
}

function recordDelete(run: ApplyRun, op: Operation, journalled: StateChanges): void {
  delete run.state.resources[op.address];
  journalled.drop.push(op.address);
  delete journalled.set[op.address];
  run.tally.deleted.add(op.address);
  if (KINDS[op.kind].read.via === 'account') {
    delete run.state.account_id;
    journalled.accountId = null;
  }
  run.tally.result.destroyed++;
}

function recordWrite(run: ApplyRun, op: Operation, id: string, journalled: StateChanges, at: number): void {
  const entry = writtenEntry(op, id, run.changes.get(op.address), run.state, new Date(at).toISOString());
  run.state.resources[op.address] = entry;
  journalled.set[op.address] = entry;
  // a pause or an activation is part of the change the plan counts, not one of its own
  if (op.phase === 'pause' || op.phase === 'activate') return;
  // a creative put back undoes the removal counted as destroyed, and is told on its own line
  if (op.phase === 'restore') run.tally.result.destroyed--;
  else if (op.action === 'create') run.tally.result.added++;
  else run.tally.result.changed++;
}

/** What the state holds for `op`'s address once its create or update succeeded with `id`, recorded `at`. */
function writtenEntry(op: Operation, id: string, change: ResourceChange | undefined, state: AccountState, at: string): StateResource {
  // a creative put back holds its old values, not those the change wanted
  const after = resolveRefs((op.phase === 'restore' ? undefined : change?.after) ?? op.params, state);
  // a create sent paused, or a pause, leaves the object paused until its activation
  const serving = KINDS[op.kind].serving;
  const held = (op.phase === 'held' || op.phase === 'pause') && serving !== undefined ? { [serving.field]: op.params[serving.field] } : {};
  const applied = { ...asApplied(op.kind, after.ok ? after.values : op.params), ...held };
  const previous = state.resources[op.address];
  // an activation owed stays owed until a write sets the status
  const owed = op.phase === 'held' || (previous?.held === true && (serving === undefined || op.params[serving.field] === undefined));
  return {
    kind: op.kind,
    id: op.action === 'create' ? id : (op.id ?? id),
    applied,
    ...(change?.protected === true ? { protected: true } : {}),
    ...(op.action === 'create' || previous?.created === true ? { created: true } : {}),
    ...(owed ? { held: true } : {}),
    recorded_at: at,
  };
}
