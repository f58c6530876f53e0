/**
 * Plan → JSON plan document. The one place where the plan's data is turned into what people and
 * tools see: every human format is rendered from the document this returns. It adds no decision
 * of its own; it only renames, counts, sums per currency, moves values known only after apply
 * from `after` to `after_unknown` (unknowns.ts) and orders (accounts as planned, resources by
 * address, object keys alphabetically) so the same plan always gives the same bytes.
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import { attributeChanges } from '../diff/attribute-changes.js';
import type { Action, ResourceChange } from '../diff/types.js';
import type { UnmanagedObject } from '../diff/unmanaged.js';
import type { ChangeAttribution } from '../live/attribution.js';
import { formatAddress } from '../manifest/address.js';
import { formatMicros } from '../manifest/money.js';
import type { ResourceAddress } from '../manifest/types.js';
import type { AccountPlan, GuardrailViolation, Plan, RequestEstimate, SpendDelta, UnmanagedChild } from '../plan/types.js';
import {
  PLAN_DOCUMENT_FORMAT_VERSION,
  type ChangeFacts,
  type DocumentAccount,
  type DocumentAttribution,
  type DocumentMove,
  type DocumentRemoval,
  type DocumentActions,
  type DocumentChange,
  type DocumentDiagnostic,
  type DocumentGuardrail,
  type DocumentRange,
  type DocumentRequests,
  type DocumentResourceChange,
  type DocumentServing,
  type DocumentSpend,
  type DocumentSummary,
  type DocumentUnmanaged,
  type DocumentUnmanagedChild,
  type DocumentWithoutCreative,
  type PlanDocument,
  type PlanDocumentHead,
  type PlanDocumentStream,
  type StreamedAccount,
} from './document-types.js';
import { countChanges } from './document-views.js';
import { afterUnknown, containsUnknown, knownPart, unknownMask, type UnknownMask } from './unknowns.js';

const ACTIONS: Readonly<Record<Action, DocumentActions>> = {
  create: ['create'],
  update: ['update'],
  replace: ['delete', 'create'],
  delete: ['delete'],
  noop: ['no-op'],
};

/** A JSON value with object keys sorted at every depth and `undefined` members left out. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : canonical(item)));
  if (typeof value === 'number' && Object.is(value, -0)) return 0;
  if (value === null || typeof value !== 'object') return value ?? null;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
}

function canonicalRecord(value: Record<string, unknown> | null): Record<string, unknown> | null {
  return value === null ? null : (canonical(value) as Record<string, unknown>);
}

/** Parents before children, siblings by collection then key, in code-unit order. */
function compareAddresses(a: ResourceAddress, b: ResourceAddress): number {
  const n = Math.min(a.steps.length, b.steps.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.steps[i];
    const y = b.steps[i];
    if (x === undefined || y === undefined) break;
    if (x.collection !== y.collection) return x.collection < y.collection ? -1 : 1;
    if (x.key !== y.key) return x.key < y.key ? -1 : 1;
  }
  return a.steps.length - b.steps.length;
}

/**
 * The serving note of each change: a serving object's own (created or kept paused), and on the
 * children of one that changes atomically or paused, the way they go out.
 */
function servingNotes(plan: AccountPlan): (change: ResourceChange, address: string) => DocumentServing | undefined {
  const own = new Map<string, DocumentServing>();
  const forChildren: Array<{ prefix: string; kinds: ReadonlySet<string>; serving: DocumentServing }> = [];
  for (const note of plan.serving) {
    if (note.how === 'created-paused' || note.how === 'kept-paused') own.set(note.address, { how: note.how, kinds: [...note.kinds] });
    else forChildren.push({ prefix: `${note.address}.`, kinds: new Set(note.kinds), serving: { how: note.how, kinds: [...note.kinds], parent: note.address } });
  }
  return (change, address) => {
    const mine = own.get(address);
    if (mine !== undefined || change.action === 'noop') return mine;
    return forChildren.find((c) => c.kinds.has(change.kind) && address.startsWith(c.prefix))?.serving;
  };
}

/** What the renderers read of a change before building it: the fields `countChanges` and `isAction` need. */
function changeFacts(change: ResourceChange): ChangeFacts {
  return { change: { actions: ACTIONS[change.action] }, drift: change.drift || change.reason === 'deleted_outside', type: change.kind, reason: change.reason ?? null };
}

function resourceChange(change: ResourceChange, account: string, deletedWith: ReadonlyMap<string, string>, shownOnly: boolean, serving: DocumentServing | undefined, names: Record<string, string> | undefined): DocumentResourceChange {
  const address = formatAddress(change.address);
  // people see a create or a delete as its whole `after` or `before`, never by attribute
  const listed = shownOnly && (change.action === 'create' || change.action === 'delete') ? [] : attributeChanges(change);
  const attributes = [...listed]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((c) => ({
      path: c.path,
      before: canonical(c.before),
      after: canonical(knownPart(c.after)),
      ...(containsUnknown(c.after) ? { after_unknown: canonical(unknownMask(c.after)) as UnknownMask } : {}),
      origin: c.origin,
      forces_replacement: c.forcesReplacement,
      ...(c.applied === undefined ? {} : { applied: canonical(c.applied) }),
    }));
  const facts = changeFacts(change);
  return {
    address,
    account,
    type: facts.type,
    id: change.id ?? null,
    change: {
      actions: facts.change.actions,
      before: canonicalRecord(change.before),
      after: canonicalRecord(change.after === null ? null : (knownPart(change.after) as Record<string, unknown>)),
      after_unknown: canonicalRecord(afterUnknown(change.after)) as DocumentChange['after_unknown'],
      attributes,
    },
    drift: facts.drift,
    reason: facts.reason,
    currency: change.currency ?? null,
    protected: change.protected,
    deleted_with: deletedWith.get(address) ?? null,
    ...(names === undefined ? {} : { value_names: { ...names } }),
    ...(serving === undefined ? {} : { serving }),
    ...(change.attribution === undefined ? {} : { attribution: change.attribution.map(attributionEntry) }),
  };
}

/** One change the account history records, as the document lists it. */
function attributionEntry(a: ChangeAttribution): DocumentAttribution {
  return { user_id: a.userId, platform: a.platform, change_time: a.changeTime, change_type: a.changeType, ...(a.fields.length === 0 ? {} : { fields: [...a.fields] }) };
}

function unmanagedEntry(u: UnmanagedObject, account: string): DocumentUnmanaged {
  return {
    type: u.kind,
    id: u.id,
    name: u.name,
    entity_status: u.status,
    parent_id: u.parentId,
    daily_budget_amount_local_micro: u.dailyBudgetMicros,
    account,
    parent_address: u.parentAddress,
    currency: u.currency,
    drift: u.new,
    serving: u.serves,
    ...(u.attribution === undefined ? {} : { attribution: u.attribution.map(attributionEntry) }),
  };
}

function unmanagedChild(c: UnmanagedChild, account: string): DocumentUnmanagedChild {
  return {
    type: c.kind,
    id: c.id,
    name: c.name,
    entity_status: c.status,
    parent_id: c.parentId,
    daily_budget_amount_local_micro: c.dailyBudgetMicros,
    account,
    parent_address: c.parentAddress,
    currency: c.currency,
    serving: c.serves,
    with_parent: c.withParent,
  };
}

function addRequests(into: DocumentRequests, requests: RequestEstimate): DocumentRequests {
  return { reads: into.reads + requests.reads, writes: into.writes + requests.writes, batches: into.batches + requests.batches };
}

/** Sums deltas per currency (sorted by code); a currency whose deltas cancel out is kept, at zero. */
function spend(deltas: readonly SpendDelta[]): DocumentSpend[] {
  const sums = new Map<string, { daily: number; total: number; serving?: { before: number; after: number; dormant: number; committed?: number; openEnded: boolean } }>();
  for (const d of deltas) {
    const sum = sums.get(d.currency) ?? { daily: 0, total: 0 };
    const was = sum.serving;
    const committed = d.serving?.committedMicros === undefined ? was?.committed : (was?.committed ?? 0) + d.serving.committedMicros;
    const serving =
      d.serving === undefined
        ? was
        : { before: (was?.before ?? 0) + d.serving.beforeMicros, after: (was?.after ?? 0) + d.serving.afterMicros, dormant: (was?.dormant ?? 0) + d.serving.dormantMicros, ...(committed === undefined ? {} : { committed }), openEnded: (was?.openEnded ?? false) || d.serving.openEnded === true };
    sums.set(d.currency, { daily: sum.daily + d.dailyMicros, total: sum.total + d.totalMicros, ...(serving === undefined ? {} : { serving }) });
  }
  return [...sums.keys()].sort().map((currency) => {
    const { daily, total, serving } = sums.get(currency) ?? { daily: 0, total: 0 };
    return {
      currency,
      daily_micros: daily,
      total_micros: total,
      daily: formatMicros(daily),
      total: formatMicros(total),
      ...(serving === undefined
        ? {}
        : {
            serving_daily_before_micros: serving.before,
            serving_daily_after_micros: serving.after,
            dormant_daily_after_micros: serving.dormant,
            serving_daily_before: formatMicros(serving.before),
            serving_daily_after: formatMicros(serving.after),
            dormant_daily_after: formatMicros(serving.dormant),
            ...(serving.committed === undefined ? {} : { committed_total_after_micros: serving.committed, committed_total_after: formatMicros(serving.committed), committed_open_ended: serving.openEnded }),
          }),
    };
  });
}

function range(r: SourceRange): DocumentRange {
  return {
    file: r.file,
    start: { line: r.start.line, column: r.start.column, offset: r.start.offset },
    end: { line: r.end.line, column: r.end.column, offset: r.end.offset },
  };
}

function diagnostic(d: Diagnostic): DocumentDiagnostic {
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    range: d.range === undefined ? null : range(d.range),
    related: (d.related ?? []).map((r) => ({ message: r.message, range: range(r.range) })),
  };
}

function guardrail(v: GuardrailViolation): DocumentGuardrail {
  return { rule: v.rule, address: v.address, enforcement: v.enforcement, value: v.value, limit: v.limit, allowed: v.allowed, account: v.account, attribute: v.attribute ?? null, range: v.source === undefined ? null : range(v.source) };
}

/** Counts with the account's moves added, when it makes any. */
function withMoves(summary: DocumentSummary, moves: number): DocumentSummary {
  return moves === 0 ? summary : { ...summary, move: moves };
}

function account(plan: AccountPlan, changes: readonly ChangeFacts[]): DocumentAccount {
  const zero: DocumentRequests = { reads: 0, writes: 0, batches: 0 };
  return { key: plan.account, id: plan.accountId ?? null, ...(plan.name === undefined ? {} : { name: plan.name }), endpoint: plan.endpoint, summary: withMoves(countChanges(changes), plan.moves?.length ?? 0), requests: addRequests(zero, plan.requests), spend: spend(plan.spend) };
}

/**
 * Whether people see the change: an action, a change made outside adsctl, or the no-op that
 * releases an object. The others are no-ops only the JSON document lists (`isAction` and the
 * drift sections of the renderers ask no more of a document).
 */
function isShown(change: ResourceChange): boolean {
  return change.action !== 'noop' || change.drift || change.reason === 'deleted_outside' || change.reason === 'released' || change.reason === 'import';
}

function streamedAccount(accountPlan: AccountPlan, shownOnly: boolean): StreamedAccount {
  const listed = shownOnly ? accountPlan.changes.filter(isShown) : accountPlan.changes;
  const sorted = [...listed].sort((a, b) => compareAddresses(a.address, b.address));
  const facts = sorted.map(changeFacts);
  const deletedWith = new Map(accountPlan.implied.map((i) => [i.address, i.by]));
  const servingOf = servingNotes(accountPlan);
  function* changes(which: (facts: ChangeFacts) => boolean = () => true): Generator<DocumentResourceChange> {
    for (const [i, c] of sorted.entries()) {
      if (!which(facts[i]!)) continue;
      const address = formatAddress(c.address);
      yield resourceChange(c, accountPlan.account, deletedWith, shownOnly, servingOf(c, address), accountPlan.valueNames?.[address]);
    }
  }
  return { account: account(accountPlan, facts), facts, changes };
}

/**
 * The plan document of `planToDocument` as a head and per-account streams of resource changes;
 * iterating every account's `changes()` gives `resource_changes` in order.
 */
export function streamPlanDocument(plan: Plan, options: { shownOnly?: boolean } = {}): PlanDocumentStream {
  const accounts = plan.accounts.map((a) => streamedAccount(a, options.shownOnly === true));
  const requests = plan.accounts.reduce<DocumentRequests>((sum, a) => addRequests(sum, a.requests), { reads: 0, writes: 0, batches: 0 });
  const moved: DocumentMove[] = plan.accounts.flatMap((a) => (a.moves ?? []).map((m) => ({ account: a.account, from: m.from, to: m.to, type: m.kind, id: m.id ?? null, count: m.count })));
  const removed: DocumentRemoval[] = plan.accounts.flatMap((a) => (a.removals ?? []).map((r) => ({ account: a.account, address: r.address, type: r.kind, id: r.id ?? null, count: r.count })));
  const unmanaged = plan.accounts.flatMap((a) => (a.unmanaged ?? []).map((u) => unmanagedEntry(u, a.account)));
  const children = plan.accounts.flatMap((a) => (a.unmanagedChildren ?? []).map((c) => unmanagedChild(c, a.account)));
  const withoutCreative: DocumentWithoutCreative[] = plan.accounts.flatMap((a) =>
    (a.withoutCreative ?? []).map((w) => ({ account: a.account, address: w.address, type: w.kind, id: w.id, repaired_by: [...w.repairs] })),
  );
  const head: PlanDocumentHead = {
    format_version: PLAN_DOCUMENT_FORMAT_VERSION,
    mode: plan.mode,
    ...(withoutCreative.length === 0 ? {} : { serving_without_creative: withoutCreative }),
    accounts: accounts.map((a) => a.account),
    summary: withMoves(countChanges(accounts.flatMap((a) => a.facts)), moved.length),
    requests,
    spend: spend(plan.accounts.flatMap((a) => a.spend)),
    diagnostics: plan.diagnostics.map(diagnostic),
    guardrails: (plan.guardrails ?? []).map(guardrail),
    ...(plan.allowed === undefined || plan.allowed.length === 0 ? {} : { guardrails_allowed: [...plan.allowed] }),
    ...(moved.length === 0 ? {} : { moved }),
    ...(removed.length === 0 ? {} : { removed }),
    ...(unmanaged.length === 0 ? {} : { unmanaged }),
    ...(children.length === 0 ? {} : { unmanaged_children: children }),
  };
  return { head, accounts };
}

/**
 * The JSON plan document of docs/architecture.md for `plan`; with `shownOnly`, the document the
 * text and Markdown renderers need: without the no-ops nobody is shown (a no-change plan of a
 * large account then builds almost nothing), and without the attribute list of a create or a
 * delete, which they show by its whole `after` or `before`. No-op resources are listed with `["no-op"]`
 * as Terraform does; a change's `account` is the key of the account plan that holds it;
 * diagnostics keep the plan's order.
 */
export function planToDocument(plan: Plan, options: { shownOnly?: boolean } = {}): PlanDocument {
  const stream = streamPlanDocument(plan, options);
  const { format_version, mode, serving_without_creative, accounts, ...rest } = stream.head;
  const first = serving_without_creative === undefined ? {} : { serving_without_creative };
  return { format_version, mode, ...first, accounts, resource_changes: stream.accounts.flatMap((a) => [...a.changes()]), ...rest };
}
