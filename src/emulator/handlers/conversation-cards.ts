/**
 * Image and video conversation cards (Part B), at accounts/:id/cards/image_conversation and
 * /video_conversation: the legacy cards that GET cards includes with `include_legacy_cards` and
 * `cards/all` finds by URI. Parameters come in the query string or a form body; the rules are in
 * conversation-card-rules.ts. Lists page by 200 (at most 1000) and filter by `card_ids` (200) and
 * `q` (name prefix, 80), with `sort_by`, `with_deleted` and `with_total_count`.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { notFound } from '../errors.js';
import { listPage, readListParams, rowsByIds } from '../list.js';
import type { Rec, Row } from '../store/row.js';
import { accountIdOf, now } from './common.js';
import { readConversationCard, type ConversationFormat } from './conversation-card-rules.js';

const SORTABLE = ['created_at', 'updated_at', 'deleted', 'name'] as const;

/** Every field of a new card, unset ones null, in the order the service returns them. */
function blank(format: ConversationFormat, id: string, time: string): Rec {
  const rec: Rec = { id, name: null, card_type: format === 'image' ? 'IMAGE_CONVERSATION' : 'VIDEO_CONVERSATION', card_uri: `card://${id}` };
  for (const cta of ['first_cta', 'second_cta', 'third_cta', 'fourth_cta']) Object.assign(rec, { [cta]: null, [`${cta}_tweet`]: null });
  Object.assign(rec, { title: null, thank_you_text: null, thank_you_url: null, media_key: null, media_url: null });
  if (format === 'video') Object.assign(rec, { poster_media_url: null, unlocked_video_media_key: null });
  return { ...rec, unlocked_image_url: null, created_at: time, updated_at: time, deleted: false };
}

function findCard(ctx: ApiContext, format: ConversationFormat, withDeleted: boolean): Row {
  const id = ctx.pathParams['card_id'] ?? '';
  const row = ctx.store.get('conversation_card', id);
  if (row === undefined || row.accountId !== accountIdOf(ctx) || row.ext['format'] !== format || (!withDeleted && row.rec['deleted'] === true)) {
    throw notFound('Card', id, accountIdOf(ctx), 'card_id');
  }
  return row;
}

function routesFor(format: ConversationFormat): RouteDef[] {
  const collection = `/12/accounts/:account_id/cards/${format}_conversation`;

  const list = (ctx: ApiContext): HandlerResult => {
    const p = ctx.params;
    const q = readListParams(p, { sortable: SORTABLE, q: { field: 'name', max: 80 } });
    const ids = p.list('card_ids', { max: 200 });
    p.finish();
    const table = ctx.store.table('conversation_card');
    const rows = ids === undefined ? table.ofAccount(accountIdOf(ctx)) : rowsByIds((id) => table.get(id), ids, accountIdOf(ctx));
    return { body: listPage(p, q, rows, (row) => row.ext['format'] === format) };
  };

  const get = (ctx: ApiContext): HandlerResult => {
    const withDeleted = ctx.params.bool('with_deleted') ?? false;
    ctx.params.finish();
    return { body: single(ctx.params, { ...findCard(ctx, format, withDeleted).rec }) };
  };

  const post = (ctx: ApiContext): HandlerResult => {
    const change = readConversationCard(ctx, format, undefined);
    const id = ctx.store.newSnowflake();
    const rec = { ...blank(format, id, now(ctx)), ...change.rec };
    const row = ctx.store.insert('conversation_card', id, accountIdOf(ctx), rec, { format, ...change.ext });
    return { status: 201, body: single(ctx.params, { ...row.rec }) };
  };

  const put = (ctx: ApiContext): HandlerResult => {
    const row = findCard(ctx, format, false);
    const change = readConversationCard(ctx, format, row);
    ctx.store.update(row, { ...change.rec, updated_at: now(ctx) }, change.ext);
    return { body: single(ctx.params, { ...row.rec }) };
  };

  const remove = (ctx: ApiContext): HandlerResult => {
    ctx.params.finish();
    const row = findCard(ctx, format, false);
    ctx.store.update(row, { deleted: true, updated_at: now(ctx) });
    return { body: single(ctx.params, { ...row.rec }) };
  };

  return [
    { method: 'GET', path: collection, family: 'account_read', access: 'read', handler: list },
    { method: 'GET', path: `${collection}/:card_id`, family: 'account_read', access: 'read', handler: get },
    { method: 'POST', path: collection, family: 'write', access: 'creative', handler: post },
    { method: 'PUT', path: `${collection}/:card_id`, family: 'write', access: 'creative', handler: put },
    { method: 'DELETE', path: `${collection}/:card_id`, family: 'write', access: 'creative', handler: remove },
  ];
}

/** The image and video conversation card endpoints. */
export const routes: RouteDef[] = [...routesFor('image'), ...routesFor('video')];
