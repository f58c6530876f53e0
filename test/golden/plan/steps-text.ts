/**
 * `steps.txt` of a golden case: what apply would send, which no plan rendering shows — the
 * layers in order, each step with its endpoint, its operations and the requests it costs (from
 * `requestsOf`, the same count the plan's request estimate sums), each operation with its id and
 * the parameters it sends, then the deletes that need no request of their own.
 */
import { requestsOf, stepVerb } from '../../../src/plan/steps.js';
import type { Operation, Plan, Step } from '../../../src/plan/types.js';

const SYMBOL: Readonly<Record<Operation['action'], string>> = { create: '+', update: '~', delete: '-' };

/** JSON with object keys sorted at every depth. */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, x]) => [k, sort(x)]),
    );
  };
  return JSON.stringify(sort(value));
}

const plural = (n: number, word: string, words = `${word}s`): string => `${n} ${n === 1 ? word : words}`;

function endpointOf(step: Step): string {
  switch (step.type) {
    case 'batch':
      return `batch endpoint, at most ${step.limit} a request`;
    case 'grouped':
      return `for ${step.group}, at most ${step.limit} a request`;
    case 'list':
      return `one comma list, at most ${step.limit} a request`;
    case 'single':
      return 'one request each';
    case 'atomic':
      // a step of only `mixable` operations: a line item that does not serve, creates and deletes sharing requests
      return step.operations.some((op) => op.together !== undefined)
        ? `batch endpoint, each line item's changes whole in one request, at most ${step.limit} a request`
        : `batch endpoint, creates and deletes in shared requests, at most ${step.limit} a request`;
  }
}

function operationLine(op: Operation): string {
  const id = op.id === undefined ? '' : ` id=${op.id}`;
  const params = Object.keys(op.params).length === 0 ? '' : ` ${sortedJson(op.params)}`;
  return `    ${SYMBOL[op.action]} ${op.address}${id}${params}`;
}

function stepLines(step: Step): string[] {
  const { writes, batches } = requestsOf(step);
  const cost = `${plural(writes, 'request')}${batches > 0 ? ` (${plural(batches, 'batch', 'batches')})` : ''}`;
  return [`  ${stepVerb(step)} ${step.kind} — ${endpointOf(step)}: ${plural(step.operations.length, 'operation')} in ${cost}`, ...step.operations.map(operationLine)];
}

/** Renders every account's steps (see the file comment); ends with a newline. */
export function renderSteps(plan: Plan): string {
  const lines: string[] = [];
  for (const account of plan.accounts) {
    const r = account.requests;
    if (lines.length > 0) lines.push('');
    lines.push(`account ${account.account} (${account.endpoint}): ${plural(r.reads, 'read')}, ${plural(r.writes, 'write')} in ${plural(account.layers.flat().length, 'step')}${r.batches > 0 ? ` (${plural(r.batches, 'batch', 'batches')})` : ''}`);
    account.layers.forEach((layer, i) => {
      lines.push('', `layer ${i + 1} of ${account.layers.length}${layer.length > 1 ? ', steps in parallel' : ''}:`);
      for (const step of layer) lines.push(...stepLines(step));
    });
    if (account.implied.length > 0) {
      lines.push('', 'deleted with their line item, no request of their own:');
      for (const i of account.implied) lines.push(`  - ${i.address} with ${i.by}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
