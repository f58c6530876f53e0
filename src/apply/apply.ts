/**
 * `applyPlan`: executes one account's plan. Layers run in order, the steps of a layer together
 * (bounded by the client's parallelism); an operation is sent only when every operation it comes
 * `after` (its edges in the dependency graph) succeeded, and is skipped, with the reason,
 * otherwise. Before every write request the journal records it; after every answer the journal
 * records its outcome (the ids bound, the addresses dropped) in one small durable append, so a
 * process killed at any point loses nothing; the state itself is written as a checkpoint every few
 * seconds, when stopped, and at the end (state/apply-journal.ts).
 * A batch refused for one item is sent again without it, except that the operations of a
 * `together` group (the targeting changes of a serving line item, plan/serving.ts) are sent, and
 * fail, whole; an update names an object created earlier in the apply (its activation) by the id
 * bound then. A create with no answer is resolved by
 * re-reading the service, and sent again only when the service shows it did not happen. At most
 * `parallelism` requests are in flight; once `stop` is aborted no new one is sent, those in flight
 * finish and are recorded, and the rest are counted as not started.
 */
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { AdsApi } from '../api/ads-api.js';
import type { WriteContext } from '../kinds/descriptor.js';
import type { ResourceKind } from '../kinds/kind.js';
import { keepsMembers, membersStoreOf, rowName } from '../members/store-path.js';
import { syncMembers } from '../members/sync.js';
import type { MemberRows } from '../state/member-rows.js';
import { Semaphore } from '../api/semaphore.js';
import type { ResourceChange } from '../diff/types.js';
import { formatAddress } from '../manifest/address.js';
import type { AccountPlan, Operation, Step } from '../plan/types.js';
import { ApplyJournal, noChanges, type StateChanges } from '../state/apply-journal.js';
import type { AccountState } from '../state/state-file.js';
import type { StateStore } from '../state/store.js';
import type { ApplyEvent, ApplyResult } from './events.js';
import { findCreatedAll } from './find-created.js';
import { KINDS } from '../kinds/registry.js';
import { resolveRefs } from './resolve.js';
import { sendChunk, type Outcome } from './send.js';
import { ApiError } from '../api/errors.js';
import { packGroups, stepVerb } from '../plan/steps.js';

interface ApplyInput {
  plan: AccountPlan;
  api: AdsApi;
  /** The live account id. */
  accountId: string;
  /** The locked state of the account; changed as the apply goes, and checkpointed. */
  state: AccountState;
  /** Where the state and its journal are kept. */
  store: StateStore;
  /** The state directory, where what is kept beside the state lives (member stores). */
  stateDir: string;
  /** What the versions this apply keeps are named after: apply, destroy. */
  operation?: string;
  /** The clock (epoch ms) for journal entries and checkpoints. */
  now?: () => number;
  /** The state is checkpointed at most this often while requests go on; the default is 5 s. */
  checkpointEveryMs?: number;
  onEvent?: (event: ApplyEvent) => void;
  /** Aborted to stop the apply: nothing more is sent; what is in flight finishes and is recorded. */
  stop?: AbortSignal;
  /** Write requests in flight at once; the default is the client's. */
  parallelism?: number;
}

/**
 * The write context of an account's apply: files the manifest names are read from its folder
 * (`plan.manifestDir`, under `plan.root`), and what is kept per resource sits in a folder beside
 * the state file, named after a hash of the address.
 */
function writeContextOf(plan: AccountPlan, stateDir: string, onEvent: (e: ApplyEvent) => void, rows?: MemberRows): WriteContext {
  const dir = resolve(plan.root ?? '.', plan.manifestDir ?? '.');
  const filePath = (path: string): string => (isAbsolute(path) ? path : join(dir, path));
  return {
    filePath,
    readFile: (path) => readFile(filePath(path)),
    sidecarPath: (address, id) => membersStoreOf(stateDir, plan.account, address, id, rows),
    progress: (address, message) => onEvent({ type: 'working', account: plan.account, address, message }),
    syncMembers,
  };
}

const PAST = { create: 'created', update: 'updated', delete: 'deleted' } as const;

/** Why a member of a `together` group that the service did not refuse was not applied either. */
const withSibling = (address: string): ApiError =>
  new ApiError({ status: 400, items: [{ code: 'BATCH_REJECTED', message: `not applied: it goes in one request with ${address}, which the service refused` }], retryable: false, outcome: 'rejected', request: 'batch' });

/** Rounds of re-sending operations refused only because of a sibling, or with no answer. */
const MAX_ROUNDS = 4;

/** Write requests in flight at once unless the caller says otherwise (the client's default). */
const DEFAULT_PARALLELISM = 8;

/** How often the state is checkpointed while an apply goes on, unless the caller says otherwise. */
const CHECKPOINT_EVERY_MS = 5_000;

/** The values a successful write leaves applied: each as its rule records it (`FieldRule.appliedAs`). */
function asApplied(kind: ResourceKind, values: Record<string, unknown>): Record<string, unknown> {
  const out = { ...values };
  for (const rule of KINDS[kind].attributes) if (rule.appliedAs !== undefined && out[rule.field] !== undefined) out[rule.field] = rule.appliedAs(out[rule.field]);
  return out;
}

/** Whether the object of `change` already serves on the service (its owed activation, if any, is done). */
function servesLive(change: ResourceChange): boolean {
  const serving = KINDS[change.kind].serving;
  return serving !== undefined && change.before?.[serving.field] === serving.active;
}

export async function applyPlan(input: ApplyInput): Promise<ApplyResult> {
  const { plan, api, accountId, state, stateDir, store } = input;
  const emit = (e: ApplyEvent): void => input.onEvent?.(e);
  const now = input.now ?? Date.now;
  const operation = input.operation ?? 'apply';
  const changes = new Map<string, ResourceChange>(plan.changes.map((c) => [formatAddress(c.address), c]));
  const journal = await ApplyJournal.open(store, state);
  /** Keys of the operations that succeeded; an operation runs only after all it depends on is here. */
  const succeeded = new Set<string>();
  const planned = new Map(plan.layers.flat().flatMap((s) => s.operations).map((op) => [op.key, op]));
  /** Addresses whose old object this apply deleted (a delete, or the first half of a replace). */
  const deleted = new Set<string>();
  const result: ApplyResult = { added: 0, changed: 0, destroyed: 0, errors: [], notStarted: 0 };
  const total = plan.layers.flat().reduce((n, s) => n + s.operations.length, 0);
  let done = 0;
  /** Operations that succeeded, failed or were skipped; the others were never started. */
  let settled = 0;
  const slots = new Semaphore(input.parallelism ?? DEFAULT_PARALLELISM);
  const stopped = (): boolean => input.stop?.aborted === true;
  emit({ type: 'start', account: plan.account, operations: total });

  /** A checkpoint of the state, once the last one is old enough; the journal then keeps only what it lacks. */
  let lastCheckpoint = now();
  let checkpointing = false;
  const checkpointIfDue = async (): Promise<void> => {
    if (checkpointing || now() - lastCheckpoint < (input.checkpointEveryMs ?? CHECKPOINT_EVERY_MS)) return;
    checkpointing = true;
    try {
      const serial = state.serial;
      await store.checkpoint(state, operation, false);
      await journal.compact(serial);
      lastCheckpoint = now();
    } finally {
      checkpointing = false;
    }
  };
  /** Removals of member stores kept in the state's database, awaited after the last checkpoint. */
  const forgetting: Array<Promise<unknown>> = [];
  /** Drops an address from the state, with what is kept beside it (a membership's members last uploaded). */
  const forget = (address: string): void => {
    const entry = state.resources[address];
    delete state.resources[address];
    if (entry === undefined || !keepsMembers(entry.kind)) return;
    const kept = membersStoreOf(stateDir, plan.account, address, entry.id, store.memberRows?.(plan.account));
    rmSync(kept.path, { force: true });
    rmSync(kept.legacyPath, { force: true });
    // settled here, so a failure is met when awaited, never as an unhandled rejection
    if (kept.rows !== undefined) forgetting.push(kept.rows.remove(rowName(kept)).then(() => undefined, (error: unknown) => error));
  };
  const context = writeContextOf(plan, stateDir, emit, store.memberRows?.(plan.account));

  /** Records a success in the state and in `journalled`, the outcome of its request. */
  const record = (op: Operation, outcome: Outcome & { status: 'ok' }, journalled: StateChanges): void => {
    const change = changes.get(op.address);
    succeeded.add(op.key);
    settled++;
    if (op.action === 'delete') {
      delete state.resources[op.address];
      journalled.drop.push(op.address);
      delete journalled.set[op.address];
      deleted.add(op.address);
      if (KINDS[op.kind].read.via === 'account') {
        delete state.account_id;
        journalled.accountId = null;
      }
      result.destroyed++;
      return;
    }
    const after = resolveRefs(change?.after ?? op.params, state);
    // a create sent paused, or a pause, leaves the object paused until its activation
    const serving = KINDS[op.kind].serving;
    const held = (op.phase === 'held' || op.phase === 'pause') && serving !== undefined ? { [serving.field]: op.params[serving.field] } : {};
    const applied = { ...asApplied(op.kind, after.ok ? after.values : op.params), ...held };
    const previous = state.resources[op.address];
    // an activation owed stays owed until a write sets the status
    const owed = op.phase === 'held' || (previous?.held === true && (serving === undefined || op.params[serving.field] === undefined));
    state.resources[op.address] = {
      kind: op.kind,
      id: op.action === 'create' ? outcome.id : (op.id ?? outcome.id),
      applied,
      ...(change?.protected === true ? { protected: true } : {}),
      ...(op.action === 'create' || previous?.created === true ? { created: true } : {}),
      ...(owed ? { held: true } : {}),
    };
    journalled.set[op.address] = state.resources[op.address]!;
    // a pause or an activation is part of the change the plan counts, not one of its own
    if (op.phase === 'pause' || op.phase === 'activate') return;
    if (op.action === 'create') result.added++;
    else result.changed++;
  };

  const fail = (op: Operation, message: string): void => {
    settled++;
    result.errors.push({ address: op.address, message });
    emit({ type: 'failed', account: plan.account, address: op.address, message });
  };

  /** Sends `ops` (already resolved into `params`) once; returns those to send again. */
  async function sendOnce(step: Step, ops: Operation[], params: Array<Record<string, unknown>>): Promise<Array<{ op: Operation; params: Record<string, unknown> }>> {
    const seq = await journal.intend(
      ops.map((op, i) => ({ address: op.address, kind: op.kind, action: op.action, ...(op.action === 'create' ? { params: params[i] } : {}) })),
      now(),
    );
    const sentAt = Date.now();
    const journalled = noChanges();
    const write = KINDS[step.kind].write;
    const endpoint = step.action === 'update' ? write.update : write[step.action];
    if (endpoint === undefined) throw new Error(`${step.kind} has no ${step.action} endpoint`);
    const outcomes: Outcome[] = await sendChunk(api, accountId, endpoint, ops, params, context);

    const again: Array<{ op: Operation; params: Record<string, unknown> }> = [];
    const unanswered: number[] = [];
    // a `together` group is applied whole or not at all: a member refused fails the group
    const refusedGroups = new Map<string, string>();
    if (step.type === 'atomic') {
      ops.forEach((op, i) => {
        const outcome = outcomes[i]!;
        if (op.together !== undefined && outcome.status === 'failed' && !refusedGroups.has(op.together)) refusedGroups.set(op.together, op.address);
      });
    }
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const refusedWith = op.together === undefined ? undefined : refusedGroups.get(op.together);
      const outcome: Outcome = outcomes[i]!.status === 'retry' && refusedWith !== undefined ? { status: 'failed', error: withSibling(refusedWith) } : outcomes[i]!;
      if (outcome.status === 'ok') record(op, outcome, journalled);
      else if (outcome.status === 'failed') fail(op, outcome.error.describe());
      else if (outcome.status === 'retry') again.push({ op, params: params[i]! });
      else if (op.action !== 'create') again.push({ op, params: params[i]! });
      else unanswered.push(i);
    }
    if (unanswered.length > 0) {
      const taken = new Set(Object.values(state.resources).map((r) => r.id));
      const found = await findCreatedAll(api, accountId, unanswered.map((i) => ({ kind: ops[i]!.kind, params: params[i]!, sentAt })), taken);
      unanswered.forEach((i, j) => {
        const op = ops[i]!;
        const id = found[j];
        emit({ type: 'resolved', account: plan.account, address: op.address, id });
        if (id === undefined) again.push({ op, params: params[i]! });
        else record(op, { status: 'ok', id }, journalled);
      });
    }
    state.serial++;
    await journal.close(seq, state.serial, journalled);
    await checkpointIfDue();
    return again;
  }

  /** Sends a chunk until every operation has an outcome; false when stopped first. */
  async function runChunk(step: Step, chunk: Array<{ op: Operation; params: Record<string, unknown> }>): Promise<boolean> {
    let pending = chunk;
    for (let round = 1; pending.length > 0; round++) {
      if (round > MAX_ROUNDS) {
        for (const { op } of pending) fail(op, `not applied after ${MAX_ROUNDS} attempts`);
        return true;
      }
      await slots.acquire();
      try {
        if (stopped()) return false;
        pending = await sendOnce(step, pending.map((p) => p.op), pending.map((p) => p.params));
      } finally {
        slots.release();
      }
    }
    return true;
  }

  async function runStep(step: Step): Promise<void> {
    emit({ type: 'step', account: plan.account, kind: step.kind, action: stepVerb(step), operations: step.operations.length });
    const ready: Array<{ op: Operation; params: Record<string, unknown> }> = [];
    const skip = (op: Operation, because: string): void => {
      settled++;
      result.errors.push({ address: op.address, message: `skipped: ${because}` });
      emit({ type: 'skipped', account: plan.account, address: op.address, because });
    };
    const unready = new Map<Operation, string>();
    for (const op of step.operations) {
      const blocker = op.after.map((key) => planned.get(key)).find((dep) => dep !== undefined && !succeeded.has(dep.key));
      if (blocker !== undefined) {
        unready.set(op, blocker.address === op.address ? `the old object could not be ${PAST[blocker.action]}` : `${blocker.address} was not ${PAST[blocker.action]}`);
        continue;
      }
      const resolved = resolveRefs(op.params, state);
      if (!resolved.ok) {
        unready.set(op, `${resolved.missing} was not created`);
        continue;
      }
      // an update of an object created earlier in this apply (its activation) names it by the id bound then
      const id = op.id ?? (op.action === 'create' ? undefined : state.resources[op.address]?.id);
      ready.push({ op: id === op.id ? op : { ...op, id }, params: resolved.values });
    }
    // a `together` group goes whole or not at all
    const held = new Map<string, string>();
    for (const [op, because] of unready) if (op.together !== undefined && !held.has(op.together)) held.set(op.together, `${op.address}: ${because}`);
    for (const [op, because] of unready) skip(op, because);
    for (const r of ready.filter((r) => r.op.together !== undefined && held.has(r.op.together))) skip(r.op, `it goes in one request with ${held.get(r.op.together!)}`);
    const sendable = ready.filter((r) => r.op.together === undefined || !held.has(r.op.together));
    const chunks: Array<typeof ready> = [];
    if (step.type === 'atomic') {
      const params = new Map(sendable.map((r) => [r.op, r.params]));
      for (const request of packGroups(sendable.map((r) => r.op), step.limit)) chunks.push(request.map((op) => ({ op, params: params.get(op)! })));
    } else {
      const size = step.type === 'single' ? 1 : step.limit;
      for (let i = 0; i < sendable.length; i += size) chunks.push(sendable.slice(i, i + size));
    }
    await Promise.all(
      chunks.map(async (chunk) => {
        if (!(await runChunk(step, chunk))) return;
        done += chunk.length;
        emit({ type: 'progress', account: plan.account, done, total });
      }),
    );
    done += step.operations.length - sendable.length;
  }

  for (const layer of plan.layers) {
    if (stopped()) break;
    await Promise.all(layer.map((step) => runStep(step)));
  }
  result.notStarted = total - settled;

  for (const { address, by } of plan.implied) {
    if (deleted.has(by) && state.resources[address] !== undefined) {
      forget(address);
      result.destroyed++;
    }
  }
  for (const change of plan.changes) {
    if (change.action !== 'noop') continue;
    const address = formatAddress(change.address);
    if (change.reason === 'deleted_outside' || change.reason === 'released') {
      forget(address);
      continue;
    }
    if (change.id === undefined) continue;
    const after = resolveRefs(change.after ?? {}, state);
    const previous = state.resources[address];
    state.resources[address] = {
      kind: change.kind,
      id: change.id,
      applied: after.ok ? asApplied(change.kind, after.values) : (previous?.applied ?? {}),
      ...(change.protected ? { protected: true } : {}),
      ...(previous?.created === true ? { created: true } : {}),
      ...(previous?.held === true && !servesLive(change) ? { held: true } : {}),
    };
  }
  state.serial++;
  // with nothing open, the checkpoint holds every outcome: it says so, and the journal goes
  const finished = journal.openEntries === 0;
  if (finished) journal.absorbInto(state);
  await store.checkpoint(state, operation, true);
  if (finished) await store.clearJournal(plan.account);
  else await journal.compact(state.serial);
  // after the state is safe: a failure here leaves a row of a gone membership, never a lost outcome
  const failed = (await Promise.all(forgetting)).find((e) => e !== undefined);
  if (failed !== undefined) throw failed;
  return result;
}
