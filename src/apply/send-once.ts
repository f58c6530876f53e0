/**
 * Sending one chunk once. The journal records the request's intent before it goes out; the
 * answers are read into state changes; a create that got no answer is looked up on the service
 * and bound when it happened; the journal then records the request's outcome, which moves the
 * state serial on by one, and the state is checkpointed when one is due.
 */
import type { WriteEndpoint } from '../kinds/descriptor.js';
import { KINDS } from '../kinds/registry.js';
import type { Step } from '../plan/types.js';
import { noChanges, type StateChanges } from '../state/apply-journal.js';
import { checkpointIfDue } from './checkpoint.js';
import { findCreatedAll } from './find-created.js';
import { readOutcomes } from './outcomes.js';
import type { Sendable } from './ready.js';
import { recordFailure, recordSuccess } from './record.js';
import type { ApplyRun } from './run.js';
import { sendChunk } from './send.js';

/** Sends `chunk` (operations of `step`, resolved) in one request; returns those to send again. */
export async function sendOnce(run: ApplyRun, step: Step, chunk: readonly Sendable[]): Promise<Sendable[]> {
  const ops = chunk.map((s) => s.op);
  const sentAt = run.now();
  const journal = await run.journal();
  const seq = await journal.intend(chunk.map(intentOf), sentAt);
  const journalled = noChanges();
  const answers = await sendChunk(run.api, run.accountId, endpointOf(step), ops, chunk.map((s) => s.params), run.context);
  // what the answers bind is recorded as of now: the service's record of these writes is no later
  const answeredAt = run.now();
  const again: Sendable[] = [];
  const unanswered: Sendable[] = [];
  readOutcomes(step, ops, answers).forEach((outcome, i) => {
    const sent = chunk[i]!;
    if (outcome.status === 'ok') recordSuccess(run, sent.op, outcome.id, journalled, answeredAt);
    else if (outcome.status === 'failed') recordFailure(run, sent.op, outcome.error.describe());
    else if (outcome.status === 'retry' || sent.op.action !== 'create') again.push(sent);
    else unanswered.push(sent);
  });
  if (unanswered.length > 0) again.push(...(await bindLostCreates(run, unanswered, sentAt, journalled, answeredAt)));
  run.state.serial++;
  await journal.close(seq, run.state.serial, journalled);
  await checkpointIfDue(run, journal);
  return again;
}

/** What the journal's intent says of an operation about to be sent: a create with its parameters. */
const intentOf = ({ op, params }: Sendable) => ({ address: op.address, kind: op.kind, action: op.action, ...(op.action === 'create' ? { params } : {}) });

function endpointOf(step: Step): WriteEndpoint {
  const write = KINDS[step.kind].write;
  const endpoint = step.action === 'update' ? write.update : write[step.action];
  if (endpoint === undefined) throw new Error(`${step.kind} has no ${step.action} endpoint`);
  return endpoint;
}

/**
 * Looks up on the service the creates of `unanswered`, sent at `sentAt` with no answer: one found
 * is bound as a success, one not found is returned, to be sent again.
 */
async function bindLostCreates(run: ApplyRun, unanswered: readonly Sendable[], sentAt: number, journalled: StateChanges, answeredAt: number): Promise<Sendable[]> {
  const taken = new Set(Object.values(run.state.resources).map((r) => r.id));
  const found = await findCreatedAll(run.api, run.accountId, unanswered.map(({ op, params }) => ({ kind: op.kind, params, sentAt })), taken);
  const again: Sendable[] = [];
  unanswered.forEach((sent, j) => {
    const id = found[j];
    run.emit({ type: 'resolved', account: run.plan.account, address: sent.op.address, id });
    if (id === undefined) again.push(sent);
    else recordSuccess(run, sent.op, id, journalled, answeredAt);
  });
  return again;
}
