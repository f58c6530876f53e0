/**
 * Serving spend (docs/manifest.md, "Spend"), defined once: what an account's campaigns can spend
 * per day, before the plan and after it, per currency. A top-level serving object (a campaign)
 * serves when its serving field is active (`entity_status: ACTIVE`), the funding instrument it
 * names is able to fund, and at least one of its serving children (line items) serves: active,
 * its flight not ended. What it spends is its own daily budget, or, when its budgets say it is
 * spent by its children (`budget_optimization: LINE_ITEM`), the daily budgets of its serving
 * children, capped by its own. A campaign that does not serve is dormant: its budget is shown
 * apart and never counted. Activating one is an increase, pausing one a decrease, creating one
 * paused nothing. Committed spend is what the campaigns that serve after the plan can spend over
 * their flights: the daily amount times the days left until the last end of their serving line
 * items, or the total budget if less; a flight without an end counts 30 days, and says so. Over
 * the plan's changes of the account (no-ops included: every managed
 * campaign and line item), against the live funding instruments and the run's clock. Pure; the
 * descriptors say which kinds serve and which fields hold budgets, status, flight and funding.
 */
import { isUnknownRef, type ResourceChange } from '../diff/types.js';
import { DESCRIPTORS, KINDS } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { ResourceKind } from '../manifest/types.js';

/** The serving spend of one currency, in micros per day. */
interface ServingSpend {
  currency: string;
  /** What the campaigns that serve now can spend. */
  servingBeforeMicros: number;
  /** What the campaigns that serve once the plan is applied can spend. */
  servingAfterMicros: number;
  /** The daily budgets of the campaigns that exist once the plan is applied and do not serve. */
  dormantAfterMicros: number;
  /** What the campaigns that serve once the plan is applied can spend over their flights. */
  committedAfterMicros: number;
  /** Some of them has a line item without an end: counted for OPEN_ENDED_DAYS. */
  openEnded: boolean;
}

/** The days a flight without an end is counted for in committed spend. */
export const OPEN_ENDED_DAYS = 30;
const DAY_MS = 86_400_000;

/** What one campaign that serves commits over its flight: its daily amount times its days left, at most its total budget. */
interface Commitment {
  micros: number;
  openEnded: boolean;
  /** The last end of its serving line items (epoch ms); undefined when one has none. */
  endMs: number | undefined;
}

type Values = Readonly<Record<string, unknown>>;

/** One serving object as it is on one side of the plan, or as the service shows it. */
interface Served {
  /** Its address, or its live id for an object adsctl does not manage. */
  address: string;
  kind: ResourceKind;
  values: Values;
  currency: string;
  /** The plan's change of it; undefined for an object adsctl does not manage. */
  change: ResourceChange | undefined;
}

const micros = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * The values of `change`'s object before the plan, or after it; undefined where it does not exist.
 * Before, the live record under what the plan read of it (a replacement's `before` holds only what
 * the manifest manages); after, the same with the plan's values over it.
 */
function valuesOn(change: ResourceChange, side: 'before' | 'after', live: LiveAccount): Values | undefined {
  const record = change.id === undefined ? undefined : live.resources.get(change.kind)?.get(change.id)?.record;
  if (side === 'before') return change.action === 'create' || change.before === null ? undefined : { ...record, ...change.before };
  if (change.action === 'delete') return undefined;
  if (change.action === 'create') return change.after ?? undefined;
  // an update, replace or no-op: the fields the manifest leaves out are as they are
  return { ...record, ...(change.before ?? {}), ...(change.after ?? {}) };
}

/** Whether the object's serving field holds its active value. */
function active(kind: ResourceKind, values: Values): boolean {
  const serving = KINDS[kind].serving;
  return serving !== undefined && values[serving.field] === serving.active;
}

/** Whether the object's flight has ended by `now` (a kind without a flight never ends). */
function ended(kind: ResourceKind, values: Values, now: Date): boolean {
  const end = KINDS[kind].flight?.end;
  const at = end === undefined ? undefined : values[end];
  return typeof at === 'string' && Date.parse(at) <= now.getTime();
}

/** Whether `values`, of a child, serve on their own: active, the flight not ended. */
const childServes = (kind: ResourceKind, values: Values, now: Date): boolean => active(kind, values) && !ended(kind, values, now);

/** Whether the funding instrument the object names can pay: a live one that says it is not able to fund cannot; one to be created, or not read, is taken to. */
function funded(kind: ResourceKind, values: Values, live: LiveAccount): boolean {
  const field = KINDS[kind].serving?.fundedBy;
  const id = field === undefined ? undefined : values[field];
  if (id === undefined || id === null || isUnknownRef(id)) return true;
  return live.resources.get('funding_instrument')?.get(String(id))?.record['able_to_fund'] !== false;
}

/** The serving objects of one side of the plan: the top-level ones, and the children of each by its address. */
function sideOf(changes: readonly ResourceChange[], side: 'before' | 'after', live: LiveAccount): { tops: Served[]; children: Map<string, Served[]> } {
  const tops: Served[] = [];
  const children = new Map<string, Served[]>();
  for (const change of changes) {
    const d = KINDS[change.kind];
    if (d.serving === undefined) continue;
    const values = valuesOn(change, side, live);
    if (values === undefined) continue;
    const served = { address: formatAddress(change.address), kind: change.kind, values, currency: change.currency ?? 'USD', change };
    if (d.parent !== undefined && KINDS[d.parent].serving !== undefined) {
      const parent = formatAddress({ kind: d.parent, steps: change.address.steps.slice(0, -1) });
      const siblings = children.get(parent);
      if (siblings === undefined) children.set(parent, [served]);
      else siblings.push(served);
    } else if (d.budgets !== undefined) tops.push(served);
  }
  return { tops, children };
}

/** What `top`, serving and spending `daily`, commits over the flights of `serving` (its serving children). */
function commitmentOf(top: Served, daily: number, serving: readonly Served[], now: Date): Commitment {
  const ends = serving.map((c) => {
    const field = KINDS[c.kind].flight?.end;
    const at = field === undefined ? undefined : c.values[field];
    return typeof at === 'string' ? Date.parse(at) : undefined;
  });
  const openEnded = ends.some((e) => e === undefined);
  const endMs = openEnded ? undefined : Math.max(...(ends as number[]));
  const days = endMs === undefined ? OPEN_ENDED_DAYS : Math.ceil((endMs - now.getTime()) / DAY_MS);
  const total = top.values[KINDS[top.kind].budgets?.total ?? ''];
  const micros = daily * days;
  return { micros: typeof total === 'number' ? Math.min(total, micros) : micros, openEnded, endMs };
}

/** What one top-level object can spend per day, whether it serves, and what it commits when it does. */
function spendOfTop(top: Served, children: readonly Served[], live: LiveAccount, now: Date): { serves: boolean; daily: number; commitment?: Commitment } {
  const budgets = KINDS[top.kind].budgets!;
  const own = top.values[budgets.daily];
  const servingChildren = children.filter((c) => childServes(c.kind, c.values, now));
  const byChildren = budgets.spentByChildren?.(top.values) === true;
  const childBudgets = (of: readonly Served[]): number => of.reduce((n, c) => n + micros(c.values[KINDS[c.kind].budgets?.daily ?? ''] ?? 0), 0);
  const cap = (amount: number): number => (typeof own === 'number' ? Math.min(amount, own) : amount);
  const serves = active(top.kind, top.values) && funded(top.kind, top.values, live) && servingChildren.length > 0;
  if (!serves) return { serves, daily: byChildren ? cap(childBudgets(children.filter((c) => !ended(c.kind, c.values, now)))) : micros(own) };
  const daily = byChildren ? cap(childBudgets(servingChildren)) : micros(own);
  return { serves, daily, commitment: commitmentOf(top, daily, servingChildren, now) };
}

/** One campaign that serves after the plan and what it commits. */
interface CampaignCommitment extends Commitment {
  address: string;
  change: ResourceChange;
}

/** What serves in one account's plan, worked out once for every reader. */
interface AccountServing {
  /** Serving spend per currency that has any, sorted by currency. */
  spend: ServingSpend[];
  /** The addresses of the objects that serve before the plan: what `protect_serving` guards (retiring.ts). */
  servingBefore: Set<string>;
  /** What the campaigns that serve after the plan commit, by the funding instrument they name (funding.ts). */
  commitments: Map<string, CampaignCommitment[]>;
}

/**
 * Serving spend of the plan's changes of one account, the objects that serve before it, and what
 * serves after it commits by funding instrument: each side read once, each campaign judged once.
 */
export function accountServing(changes: readonly ResourceChange[], live: LiveAccount, now: Date): AccountServing {
  const by = new Map<string, ServingSpend>();
  const entry = (currency: string): ServingSpend => {
    const found = by.get(currency);
    if (found !== undefined) return found;
    const made = { currency, servingBeforeMicros: 0, servingAfterMicros: 0, dormantAfterMicros: 0, committedAfterMicros: 0, openEnded: false };
    by.set(currency, made);
    return made;
  };
  const servingBefore = new Set<string>();
  const commitments = new Map<string, CampaignCommitment[]>();
  for (const side of ['before', 'after'] as const) {
    const { tops, children } = sideOf(changes, side, live);
    for (const top of tops) {
      const under = children.get(top.address) ?? [];
      const { serves, daily, commitment } = spendOfTop(top, under, live, now);
      const e = entry(top.currency);
      if (!serves) {
        if (side === 'after') e.dormantAfterMicros += daily;
        continue;
      }
      if (side === 'before') {
        e.servingBeforeMicros += daily;
        servingBefore.add(top.address);
        for (const c of under) if (childServes(c.kind, c.values, now)) servingBefore.add(c.address);
        continue;
      }
      e.servingAfterMicros += daily;
      if (commitment === undefined) continue;
      e.committedAfterMicros += commitment.micros;
      e.openEnded ||= commitment.openEnded;
      const field = KINDS[top.kind].serving?.fundedBy;
      const id = field === undefined ? undefined : top.values[field];
      if (typeof id !== 'string' || top.change === undefined) continue;
      const on = commitments.get(id);
      const one = { address: top.address, change: top.change, ...commitment };
      if (on === undefined) commitments.set(id, [one]);
      else on.push(one);
    }
  }
  const spend = [...by.values()].filter((e) => e.servingBeforeMicros !== 0 || e.servingAfterMicros !== 0 || e.dormantAfterMicros !== 0).sort((a, b) => (a.currency < b.currency ? -1 : 1));
  return { spend, servingBefore, commitments };
}

/**
 * Whether an object the service shows serves, by the same rule, judged on the live records alone:
 * a top-level one (a campaign) when it is active, its funding instrument able to fund and one of
 * its live children serves; a child (a line item) when it is active, its flight not ended, and its
 * parent active and funded. For the objects adsctl does not manage (src/diff/unmanaged.ts), whose
 * children the refresh reads when they could serve (src/live/fetch.ts).
 */
export function liveServes(live: LiveAccount, now: Date): (kind: ResourceKind, id: string) => boolean {
  const record = (kind: ResourceKind, id: string): Values | undefined => live.resources.get(kind)?.get(id)?.record;
  // the ids of the parents that have a serving child, by parent kind, built on first use
  const withServingChild = new Map<ResourceKind, Set<string>>();
  const servingParents = (kind: ResourceKind): Set<string> => {
    let ids = withServingChild.get(kind);
    if (ids !== undefined) return ids;
    ids = new Set();
    for (const d of DESCRIPTORS) {
      if (d.parent !== kind || d.serving === undefined) continue;
      for (const r of live.resources.get(d.kind)?.values() ?? []) if (childServes(d.kind, r.record, now)) ids.add(String(r.record[d.parentField ?? '']));
    }
    withServingChild.set(kind, ids);
    return ids;
  };
  return (kind, id) => {
    const d = KINDS[kind];
    const values = record(kind, id);
    if (values === undefined || d.serving === undefined) return false;
    if (d.parent !== undefined && KINDS[d.parent].serving !== undefined) {
      const parent = record(d.parent, String(values[d.parentField ?? '']));
      return childServes(kind, values, now) && parent !== undefined && active(d.parent, parent) && funded(d.parent, parent, live);
    }
    return active(kind, values) && funded(kind, values, live) && servingParents(kind).has(id);
  };
}
