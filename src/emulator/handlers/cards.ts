/**
 * Cards (Part B, Cards): cards made of components, created and changed with JSON bodies only.
 * POST takes `name` (required, 80) and `components` or `slides` (exactly one); PUT replaces each
 * field it is given and ignores read-only fields sent back unchanged (also the `media_metadata` of
 * media components, which official SDKs send back after a lookup). The response adds `id`,
 * `card_uri` (`card://<id>`), the derived `card_type`, `created_at`, `updated_at`, `deleted`,
 * and the `media_metadata` of each media component (card-media.ts).
 * The list pages by 100 (at most 200) and filters by `card_types`, `card_id` and `card_uris` (200
 * each) and `q` (name prefix, 80); it holds only cards made here unless `include_legacy_cards`.
 * `cards/all` looks cards of any kind up by URI (required, 200) or id.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { WireError, badRequest, combine, invalidParameter, missingParameter, notFound } from '../errors.js';
import { listPage, mergeBySeq, readListParams } from '../list.js';
import type { Rec, Row } from '../store/row.js';
import { CARD_TYPES, cardTypeOf } from './card-components.js';
import { withMediaMetadata } from './card-media.js';
import { accountIdOf, getOne, now, softDelete } from './common.js';

/** The card types of legacy cards (conversation cards), which lists include on request. */
const LEGACY_CARD_TYPES = ['IMAGE_CONVERSATION', 'VIDEO_CONVERSATION'] as const;

const CARD_URI = /^card:\/\/(\d{1,20})$/;
const READ_ONLY = ['id', 'card_uri', 'card_type', 'created_at', 'updated_at', 'deleted'] as const;
const SORTABLE = ['created_at', 'updated_at', 'deleted', 'name'] as const;
const LABEL = 'Card';

const isObject = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a card body holds, and the problems found with its fields other than the components. */
interface CardBody {
  name: unknown;
  components: unknown;
  slides: unknown;
  errors: WireError[];
}

/** The JSON body's fields; read-only ones must equal `current` (on PUT), unknown ones are refused. */
function readBody(ctx: ApiContext, current: Rec | undefined): CardBody {
  const body = ctx.json ?? {};
  if (!isObject(body)) throw invalidParameter('body', 'Expected a JSON object with name and components or slides');
  const errors: WireError[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'name' || key === 'components' || key === 'slides') continue;
    const readOnly = current !== undefined && (READ_ONLY as readonly string[]).includes(key);
    if (!readOnly) errors.push(invalidParameter(key, `setting ${key} is not allowed`));
    else if (JSON.stringify(value) !== JSON.stringify(current[key])) errors.push(invalidParameter(key, `${key} is read-only`));
  }
  const name = body['name'];
  if (name === undefined ? current === undefined : typeof name !== 'string' || name === '') {
    errors.push(name === undefined || name === '' ? missingParameter('name') : invalidParameter('name', `Expected String, got ${JSON.stringify(name)} for name`));
  } else if (typeof name === 'string' && [...name].length > 80) errors.push(invalidParameter('name', 'name must be at most 80 characters long'));
  const components = current === undefined ? body['components'] : withoutMediaMetadata(body['components'], errors);
  const slides = current === undefined || !Array.isArray(body['slides']) ? body['slides'] : body['slides'].map((s) => withoutMediaMetadata(s, errors));
  if (components !== undefined && slides !== undefined) {
    errors.push(badRequest('EXCLUSIVE_PARAMETERS', 'components and slides are exclusive parameters', 'components'));
  } else if (current === undefined && components === undefined && slides === undefined) {
    errors.push(badRequest('MISSING_PARAMETER', 'One of components and slides is required', 'components'));
  }
  return { name, components, slides, errors };
}

/** The media keys a media component names. */
const mediaKeysOf = (comp: Rec): unknown[] =>
  comp['type'] === 'MEDIA' ? [comp['media_key']] : comp['type'] === 'SWIPEABLE_MEDIA' && Array.isArray(comp['media_keys']) ? comp['media_keys'] : [];

/**
 * Components as a PUT sent them, without the `media_metadata` the service adds to media
 * components when it shows a card (official SDKs send it back): read-only, so it is dropped when
 * it describes exactly the component's own media keys and refused otherwise.
 */
function withoutMediaMetadata(list: unknown, errors: WireError[]): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((comp: unknown) => {
    if (!isObject(comp) || !('media_metadata' in comp)) return comp;
    const { media_metadata: metadata, ...rest } = comp;
    const keys = mediaKeysOf(rest).map(String).sort();
    if (!isObject(metadata) || JSON.stringify(Object.keys(metadata).sort()) !== JSON.stringify(keys)) {
      errors.push(invalidParameter('media_metadata', 'media_metadata is read-only'));
    }
    return rest;
  });
}

/** A card record with its parts in the service's order. */
function cardRecord(id: string, name: unknown, cardType: string, parts: Rec, created: string, updated: string): Rec {
  return { id, name, card_type: cardType, card_uri: `card://${id}`, ...parts, created_at: created, updated_at: updated, deleted: false };
}

function postCard(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  const { name, components, slides, errors } = readBody(ctx, undefined);
  const cardType = cardTypeOf(ctx, components, slides, errors);
  const id = ctx.store.newSnowflake();
  const time = now(ctx);
  const parts = withMediaMetadata(ctx, { components, slides });
  const row = ctx.store.insert('card', id, accountIdOf(ctx), cardRecord(id, name, cardType, parts, time, time));
  return { status: 201, body: single(ctx.params, { ...row.rec }) };
}

function findCard(ctx: ApiContext, kinds: ReadonlyArray<'card' | 'conversation_card'>, withDeleted: boolean): Row {
  const id = ctx.pathParams['card_id'] ?? '';
  for (const kind of kinds) {
    const row = ctx.store.get(kind, id);
    if (row !== undefined && row.accountId === accountIdOf(ctx) && (withDeleted || row.rec['deleted'] !== true)) return row;
  }
  throw notFound(LABEL, id, accountIdOf(ctx), 'card_id');
}

function putCard(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  const row = findCard(ctx, ['card'], false);
  const { name, components, slides, errors } = readBody(ctx, row.rec);
  const unchanged = components === undefined && slides === undefined;
  if (unchanged && errors.length > 0) throw combine(errors);
  const parts: Rec = unchanged ? { components: row.rec['components'], slides: row.rec['slides'] } : withMediaMetadata(ctx, { components, slides });
  const cardType = unchanged ? String(row.rec['card_type']) : cardTypeOf(ctx, components, slides, errors);
  const kept: Rec = Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined));
  const rec = cardRecord(row.id, name ?? row.rec['name'], cardType, kept, String(row.rec['created_at']), now(ctx));
  ctx.store.replace(row, rec);
  return { body: single(ctx.params, { ...row.rec }) };
}

function listCards(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { countDefault: 100, countMax: 200, sortable: SORTABLE, withTotalCount: false, q: { field: 'name', max: 80 } });
  const types = p.list('card_types');
  const known: readonly string[] = [...CARD_TYPES, ...LEGACY_CARD_TYPES];
  const badType = types?.find((t) => !known.includes(t));
  if (badType !== undefined) p.fail(invalidParameter('card_types', `Expected a value in ${known.join(', ')}, got ${JSON.stringify(badType)} for card_types`));
  const ids = p.list('card_id', { max: 200 });
  const uris = p.list('card_uris', { max: 200, pattern: CARD_URI, typeName: 'a card URI (card://<card_id>)' });
  const legacy = p.bool('include_legacy_cards') ?? false;
  p.finish();
  const accountId = accountIdOf(ctx);
  const cards = ctx.store.table('card').ofAccount(accountId);
  const rows = legacy ? mergeBySeq([cards, ctx.store.table('conversation_card').ofAccount(accountId)]) : cards;
  const wanted = (list: string[] | undefined): Set<string> | undefined => (list === undefined ? undefined : new Set(list));
  const [typeSet, idSet, uriSet] = [wanted(types), wanted(ids), wanted(uris)];
  const keep = (row: Row): boolean =>
    (typeSet === undefined || typeSet.has(String(row.rec['card_type']))) && (idSet === undefined || idSet.has(row.id)) && (uriSet === undefined || uriSet.has(String(row.rec['card_uri'])));
  return { body: listPage(p, q, rows, keep) };
}

function allCards(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const uris = p.list('card_uris', { required: true, max: 200, pattern: CARD_URI, typeName: 'a card URI (card://<card_id>)' });
  const withDeleted = p.bool('with_deleted') ?? false;
  p.finish();
  const accountId = accountIdOf(ctx);
  const rows: Row[] = [];
  for (const uri of new Set(uris)) {
    const id = CARD_URI.exec(uri)![1]!;
    const row = ctx.store.get('card', id) ?? ctx.store.get('conversation_card', id);
    if (row !== undefined && row.accountId === accountId && (withDeleted || row.rec['deleted'] !== true)) rows.push(row);
  }
  rows.sort((a, b) => a.seq - b.seq);
  return { body: { request: { params: p.echo }, next_cursor: null, data: rows.map((r) => ({ ...r.rec })) } };
}

function getAnyCard(ctx: ApiContext): HandlerResult {
  const withDeleted = ctx.params.bool('with_deleted') ?? false;
  ctx.params.finish();
  return { body: single(ctx.params, { ...findCard(ctx, ['card', 'conversation_card'], withDeleted).rec }) };
}

const COLLECTION = '/12/accounts/:account_id/cards';

/** The cards endpoints (JSON bodies for POST and PUT) and the cards/all lookups. */
export const routes: RouteDef[] = [
  { method: 'GET', path: COLLECTION, family: 'account_read', access: 'read', handler: listCards },
  { method: 'GET', path: `${COLLECTION}/:card_id`, family: 'account_read', access: 'read', handler: (ctx) => getOne(ctx, 'card', 'card_id', LABEL) },
  { method: 'POST', path: COLLECTION, family: 'write', access: 'creative', jsonBody: true, handler: postCard },
  { method: 'PUT', path: `${COLLECTION}/:card_id`, family: 'write', access: 'creative', jsonBody: true, handler: putCard },
  { method: 'DELETE', path: `${COLLECTION}/:card_id`, family: 'write', access: 'creative', handler: (ctx) => softDelete(ctx, 'card', 'card_id', LABEL) },
  { method: 'GET', path: `${COLLECTION}/all`, family: 'account_read', access: 'read', handler: allCards },
  { method: 'GET', path: `${COLLECTION}/all/:card_id`, family: 'account_read', access: 'read', handler: getAnyCard },
];
