/**
 * Builders for the plan stage's unit tests: operations, resource changes and live accounts from
 * address texts, with neutral defaults, so each table row says only what it is about.
 */
import type { Action, ResourceChange } from '../../src/diff/types.js';
import type { LiveAccount, LiveResource } from '../../src/live/types.js';
import { parseAddress } from '../../src/manifest/address.js';
import type { ResourceAddress, ResourceKind } from '../../src/manifest/types.js';
import type { Operation } from '../../src/plan/types.js';

/** The account every builder uses. */
export const ACCOUNT_ID = '18ce54d4x5t';

/** A parsed address; throws on a typo in a test. */
export function addr(text: string): ResourceAddress {
  const parsed = parseAddress(text);
  if (parsed.value === undefined) throw new Error(`bad test address ${text}`);
  return parsed.value;
}

/** An operation on the resource at `text` (its kind from the address); updates and deletes get an id. */
export function op(action: Operation['action'], text: string, params: Record<string, unknown> = {}): Operation {
  const kind = addr(text).kind;
  return { key: `${action} ${text}`, address: text, kind, action, ...(action === 'create' ? {} : { id: `id:${text}` }), params, after: [] };
}

/** `n` campaign operations of one action, `campaigns.c001` onwards. */
export function campaignOps(action: Operation['action'], n: number): Operation[] {
  return Array.from({ length: n }, (_, i) => op(action, `campaigns.c${String(i + 1).padStart(3, '0')}`));
}

/** What a row may say about a resource change. */
export interface ChangeSpec {
  id?: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  currency?: string;
}

/** A resource change at `text`; creates have no id and no before, deletes no after. */
export function change(text: string, action: Action, spec: ChangeSpec = {}): ResourceChange {
  const address = addr(text);
  return {
    account: ACCOUNT_ID,
    address,
    kind: address.kind,
    action,
    ...(action === 'create' ? {} : { id: spec.id ?? `id:${text}` }),
    before: spec.before !== undefined ? spec.before : action === 'create' ? null : {},
    after: spec.after !== undefined ? spec.after : action === 'delete' ? null : {},
    changes: [],
    drift: false,
    protected: false,
    ...(spec.currency === undefined ? {} : { currency: spec.currency }),
  };
}

/** Live state with the given records (nothing else is read by the plan stage). */
export function liveAccount(records: Array<[ResourceKind, Record<string, unknown>]> = []): LiveAccount {
  const resources = new Map<ResourceKind, Map<string, LiveResource>>();
  for (const [kind, record] of records) {
    const id = String(record['id']);
    const byId = resources.get(kind) ?? new Map<string, LiveResource>();
    resources.set(kind, byId);
    byId.set(id, { kind, id, record, fingerprint: String(record['updated_at'] ?? id) });
  }
  return {
    account: ACCOUNT_ID,
    accountId: ACCOUNT_ID,
    currencies: { lygyi: 'USD' },
    resources,
    missing: new Set(),
  };
}
