/**
 * The diff stage's entry (docs/architecture.md): desired resources, live records and the account's state
 * → one `ResourceChange` per resource, sorted by address text. Pure and synchronous; linear in
 * the number of resources (one pass per decision rank, map lookups, a sort), so an account of
 * 100,000 resources diffs in a fraction of a second.
 */
import { sortDiagnostics, type Result } from '../diag/diagnostic.js';
import type { DesiredResource } from '../manifest/types.js';
import { formatAddress } from '../manifest/address.js';
import type { AccountState } from '../state/state-file.js';
import { desiredChange } from './desired-change.js';
import { createContext, desiredIndex, type DiffContext, type DiffInput } from './diff-context.js';
import { extraMembers } from './extras.js';
import { removalChange } from './removals.js';
import { DECISION_RANK, RANK_COUNT } from '../kinds/registry.js';
import type { ResourceChange } from './types.js';

export type { DiffInput } from './diff-context.js';

type Keyed = [text: string, change: ResourceChange];

const byText = (a: Keyed, b: Keyed): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

function byRank(resources: readonly DesiredResource[]): DesiredResource[][] {
  const ranks: DesiredResource[][] = Array.from({ length: RANK_COUNT }, () => []);
  for (const resource of resources) ranks[DECISION_RANK[resource.kind]]?.push(resource);
  return ranks;
}

/** The state's address texts in order (state files are written sorted, so this rarely sorts). */
function sortedStateTexts(state: AccountState): string[] {
  const texts = Object.keys(state.resources);
  for (let i = 1; i < texts.length; i++) if ((texts[i - 1] ?? '') > (texts[i] ?? '')) return texts.sort();
  return texts;
}

/**
 * Plan mode: the change of every desired resource, merged in address order with the removal of
 * every state resource no desired resource matched (skipped when every one matched).
 */
function planChanges(ctx: DiffContext): ResourceChange[] {
  const { state } = ctx.input;
  const keyed: Keyed[] = [];
  for (const rank of byRank(ctx.input.desired.resources)) {
    for (const resource of rank) {
      const text = formatAddress(resource.address);
      keyed.push([text, desiredChange(ctx, resource, text)]);
    }
  }
  keyed.sort(byText);
  const texts = sortedStateTexts(state);
  if (ctx.matchedState === texts.length) return keyed.map((k) => k[1]);
  const changes: ResourceChange[] = [];
  let i = 0;
  for (const text of texts) {
    for (let next = keyed[i]; next !== undefined && next[0] <= text; next = keyed[++i]) changes.push(next[1]);
    if (keyed[i - 1]?.[0] === text) continue;
    const entry = state.resources[text];
    const removal = entry === undefined ? undefined : removalChange(ctx, text, entry, undefined);
    if (removal !== undefined) changes.push(removal);
  }
  for (; i < keyed.length; i++) changes.push((keyed[i] as Keyed)[1]);
  return changes;
}

/** Destroy mode: the removal of every state resource, in address order. */
function destroyChanges(ctx: DiffContext): ResourceChange[] {
  const desired = desiredIndex(ctx);
  const changes: ResourceChange[] = [];
  for (const text of sortedStateTexts(ctx.input.state)) {
    const entry = ctx.input.state.resources[text];
    const removal = entry === undefined ? undefined : removalChange(ctx, text, entry, desired.get(text));
    if (removal !== undefined) changes.push(removal);
  }
  return changes;
}

/**
 * Diffs one account. Every desired resource gets a change (`noop` included), then every state
 * resource the plan takes down; under `destroy` only the latter. Changes come sorted by address
 * text (one account per call). Problems — a protected resource the plan would delete or replace,
 * an import of a missing object, one object bound twice — are error diagnostics beside a value
 * that is always returned, so the plan can still be shown.
 */
export function diffResources(input: DiffInput): Result<ResourceChange[]> {
  const ctx = createContext(input);
  let changes = input.mode === 'plan' ? planChanges(ctx) : destroyChanges(ctx);
  const extras = extraMembers(ctx);
  if (extras.length > 0) changes = [...changes, ...extras].sort((a, b) => byText([formatAddress(a.address), a], [formatAddress(b.address), b]));
  return { value: changes, diagnostics: sortDiagnostics(ctx.diagnostics, [input.desired.file]) };
}
