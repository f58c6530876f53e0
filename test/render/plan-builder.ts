/**
 * Builds plans in code for the render tests: a resource change from an address text and an
 * action, with before/after filled in from the attribute changes unless given, and accounts and
 * plans with neutral defaults.
 */
import type { Diagnostic } from '../../src/diag/diagnostic.js';
import type { Action, AttributeChange, ResourceChange } from '../../src/diff/types.js';
import { parseAddress } from '../../src/manifest/address.js';
import type { ResourceAddress } from '../../src/manifest/types.js';
import type { AccountPlan, Plan, RequestEstimate, SpendDelta } from '../../src/plan/types.js';

/** A parsed address; throws on a typo in a test. */
export function address(text: string): ResourceAddress {
  const parsed = parseAddress(text);
  if (parsed.value === undefined) throw new Error(`bad test address ${text}: ${parsed.diagnostics[0]?.message}`);
  return parsed.value;
}

/** An attribute change; `drift` and `forces` set origin and forcesReplacement. */
export function attr(path: string, before: unknown, after: unknown, options: { drift?: boolean; forces?: boolean } = {}): AttributeChange {
  return { path, before, after, origin: options.drift === true ? 'drift' : 'manifest', forcesReplacement: options.forces === true };
}

/** What a test may say about a resource change; everything else has a default. */
export interface ChangeSpec {
  account?: string;
  id?: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  changes?: AttributeChange[];
  reason?: ResourceChange['reason'];
  protected?: boolean;
  currency?: string;
  drift?: boolean;
}

/**
 * A resource change. Without `before`/`after`, an update or replace gets them from its attribute
 * changes (plus `unchanged`), a create has no before, a delete no after.
 */
export function change(text: string, action: Action, spec: ChangeSpec = {}, unchanged: Record<string, unknown> = {}): ResourceChange {
  const changes = spec.changes ?? [];
  const from = (side: 'before' | 'after'): Record<string, unknown> => ({ ...unchanged, ...Object.fromEntries(changes.map((c) => [c.path, c[side]]).filter(([, v]) => v !== undefined)) });
  const before = spec.before !== undefined ? spec.before : action === 'create' ? null : from('before');
  const after = spec.after !== undefined ? spec.after : action === 'delete' ? null : from('after');
  const addr = address(text);
  return {
    account: spec.account ?? 'acct',
    address: addr,
    kind: addr.kind,
    action,
    ...(spec.id !== undefined ? { id: spec.id } : action === 'create' ? {} : { id: `id-${addr.steps.at(-1)?.key ?? 'account'}` }),
    before,
    after,
    changes,
    ...(spec.reason === undefined ? {} : { reason: spec.reason }),
    drift: spec.drift ?? changes.some((c) => c.origin === 'drift'),
    protected: spec.protected ?? false,
    ...(spec.currency === undefined ? {} : { currency: spec.currency }),
  };
}

/** One account's plan. */
export function accountPlan(
  changes: ResourceChange[],
  options: { account?: string; accountId?: string; name?: string; endpoint?: string; requests?: Partial<RequestEstimate>; spend?: SpendDelta[]; implied?: AccountPlan['implied']; serving?: AccountPlan['serving'] } = {},
): AccountPlan {
  return {
    account: options.account ?? 'acct',
    ...(options.accountId === undefined ? {} : { accountId: options.accountId }),
    ...(options.name === undefined ? {} : { name: options.name }),
    endpoint: options.endpoint ?? 'local',
    changes,
    layers: [],
    requests: { reads: 0, writes: 0, batches: 0, ...options.requests },
    spend: options.spend ?? [],
    fingerprints: {},
    implied: options.implied ?? [],
    stateSerial: 0,
    serving: options.serving ?? [],
  };
}

/** A plan of the given accounts. */
export function plan(accounts: AccountPlan[], options: { mode?: Plan['mode']; diagnostics?: Diagnostic[] } = {}): Plan {
  return { formatVersion: '1.0', mode: options.mode ?? 'plan', accounts, diagnostics: options.diagnostics ?? [] };
}

/** A spend delta in micros. */
export function spend(currency: string, dailyMicros: number, totalMicros: number): SpendDelta {
  return { currency, dailyMicros, totalMicros };
}
