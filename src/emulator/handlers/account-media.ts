/**
 * Account media (Part B, Account media): the account's media assets by creative type, which media
 * creatives associate with line items. List filters: `account_media_ids` (up to 200) and
 * `creative_types` (comma list of the creative type values). DELETE retires an asset (a second
 * DELETE is 404, as for every deleted record); media creatives can no longer name it.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { invalidParameter } from '../errors.js';
import { listPage, readListParams, rowsByIds } from '../list.js';
import { accountIdOf, getOne, softDelete } from './common.js';

/** The creative types of account media (Part B enumerations). */
const CREATIVE_TYPES = [
  'BANNER',
  'BANNER_TABLET',
  'INTERSTITIAL',
  'INTERSTITIAL_LANDSCAPE',
  'INTERSTITIAL_LANDSCAPE_TABLET',
  'INTERSTITIAL_TABLET',
  'MEDIUM_RECTANGLE',
  'PREROLL',
  'VAST_PREROLL',
] as const;

const SORTABLE = ['created_at', 'updated_at', 'deleted'] as const;

function listAccountMedia(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { sortable: SORTABLE });
  const ids = p.list('account_media_ids', { max: 200 });
  const types = p.list('creative_types');
  const bad = types?.find((t) => !(CREATIVE_TYPES as readonly string[]).includes(t));
  if (bad !== undefined) p.fail(invalidParameter('creative_types', `Expected a value in ${CREATIVE_TYPES.join(', ')}, got ${JSON.stringify(bad)} for creative_types`));
  p.finish();
  const accountId = accountIdOf(ctx);
  const table = ctx.store.table('account_media');
  const rows = ids === undefined ? table.ofAccount(accountId) : rowsByIds((id) => table.get(id), ids, accountId);
  const wanted = types === undefined ? undefined : new Set(types);
  return { body: listPage(p, q, rows, (row) => wanted === undefined || wanted.has(String(row.rec['creative_type']))) };
}

const COLLECTION = '/12/accounts/:account_id/account_media';

/** The account media endpoints. */
export const routes: RouteDef[] = [
  { method: 'GET', path: COLLECTION, family: 'account_read', access: 'read', handler: listAccountMedia },
  { method: 'GET', path: `${COLLECTION}/:account_media_id`, family: 'account_read', access: 'read', handler: (ctx) => getOne(ctx, 'account_media', 'account_media_id', 'Account Media') },
  { method: 'DELETE', path: `${COLLECTION}/:account_media_id`, family: 'write', access: 'creative', handler: (ctx) => softDelete(ctx, 'account_media', 'account_media_id', 'Account Media') },
];
