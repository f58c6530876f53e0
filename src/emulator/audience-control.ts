/**
 * Control endpoints about audiences, for tests and benchmarks (outside the API, like the rest of
 * control.ts): per-audience member counts — never the members themselves — and setting an
 * account's business, which audience sharing depends on and the API cannot change.
 *
 * - `GET /_emulator/audiences` → `{custom_audiences: [{id, account_id, members, member_bytes,
 *   unmatched}],
 *   do_not_reach_lists: [...]}` in creation order, deleted ones included.
 * - `POST /_emulator/accounts/:account_id/business` with JSON `{business_id, business_name}`
 *   (strings or null) → the account record.
 */
import { json, type RawResponse } from './raw-response.js';
import type { ParsedRequest } from './request.js';
import type { Kind } from './store/row.js';
import type { Store } from './store/store.js';

const counts = (store: Store, kind: Kind, prefix: string): Array<Record<string, unknown>> =>
  [...store.table(kind).all()]
    .sort((a, b) => a.seq - b.seq)
    .map((row) => ({ id: row.id, account_id: row.accountId, members: store.members.size(`${prefix}:${row.id}`), member_bytes: store.members.bytes(`${prefix}:${row.id}`), unmatched: Number(row.ext['unmatched'] ?? 0) }));

/** Answers an audience control request, or undefined when the path is not one of them. */
export function handleAudienceControl(store: Store, req: ParsedRequest): RawResponse | undefined {
  if (req.method === 'GET' && req.path === '/audiences') {
    return json(200, { custom_audiences: counts(store, 'custom_audience', 'ca'), do_not_reach_lists: counts(store, 'do_not_reach_list', 'dnrl') });
  }
  const m = /^\/accounts\/([^/]+)\/business$/.exec(req.path);
  if (req.method === 'POST' && m !== null) {
    const account = store.get('account', decodeURIComponent(m[1]!));
    if (account === undefined) return json(404, { error: `no account ${m[1]}` });
    const body = (req.json ?? {}) as { business_id?: unknown; business_name?: unknown };
    const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
    store.transaction(() => store.update(account, { business_id: text(body.business_id), business_name: text(body.business_name) }));
    return json(200, account.rec);
  }
  return undefined;
}
