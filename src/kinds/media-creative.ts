/**
 * A media creative of a line item (Part A, Media creatives): no PUT. A media creative of a
 * PREROLL asset keeps `landing_url` at null whatever was sent. The manifest names the account
 * media by id, or as the PREROLL asset of a video of the manifest uploaded with AMPLIFY_VIDEO
 * (`media: teaser`): the service makes that asset when the video joins the media library, so its
 * id is found by the video's `media_key` when the creative is created. The media key is not on
 * the creative's record, so it is compared with what was applied: a video uploaded anew replaces
 * the creative.
 */
import type { MediaCreative } from '../manifest/generated/manifest.js';
import { field, required } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { quoteValue } from '../diag/quote.js';
import { asMap, childPointer } from './entry-nodes.js';
import type { ItemIdentity } from './manifest-reading.js';
import { manifestFields } from './manifest-fields.js';
import type { RuleProblem, WriteEndpoint } from './descriptor.js';
import { deleteOne, listed } from './standard.js';
import { LocalWriteError } from './write-error.js';

/** Creates the creative, finding the account media of a `media_key` first. */
const create: WriteEndpoint = {
  via: 'single',
  send: async (api, accountId, item) => {
    const params: Record<string, unknown> = { line_item_id: item.params['line_item_id'], ...(item.params['landing_url'] === undefined ? {} : { landing_url: item.params['landing_url'] }) };
    const mediaKey = item.params['media_key'];
    if (typeof mediaKey === 'string') {
      const asset = (await api.accountMedia(accountId)).find((m) => (m as unknown as Record<string, unknown>)['media_key'] === mediaKey);
      if (asset === undefined) throw new LocalWriteError(`${item.address}: the account has no account media for media key ${mediaKey} (only a video uploaded with AMPLIFY_VIDEO becomes a PREROLL asset)`);
      params['account_media_id'] = asset.id;
    } else {
      params['account_media_id'] = item.params['account_media_id'];
    }
    return String((await api.create('media_creative', accountId, params as never)).id);
  },
};

/** A creative names its account media by id or through a media item of the manifest, not both and not neither. */
function rules(values: Readonly<Record<string, unknown>>): RuleProblem[] {
  const hasId = values['account_media_id'] !== undefined && values['account_media_id'] !== null;
  const hasMedia = values['media_key'] !== undefined && values['media_key'] !== null;
  return hasId || hasMedia ? [] : [{ field: 'account_media_id', code: 'missing-required', message: 'a media creative needs account_media_id or media' }];
}

/**
 * A creative of the PREROLL asset of a video of the manifest (`media: teaser`), which must be an
 * AMPLIFY_VIDEO upload: keyed `media.NAME`, its `media_key` a reference to the media item; any
 * other item is keyed by its account media id.
 */
const prerollIdentity: ItemIdentity = (ctx, item, pointer) => {
  const map = asMap(item);
  const entry = map?.byKey.get('media');
  if (map === undefined || entry === undefined) return 'default';
  const at = childPointer(pointer, 'media');
  if (map.byKey.has('account_media_id')) {
    ctx.report(at, 'reference-conflict', 'media and account_media_id both say which account media to use; keep one', ctx.rangeOf(entry.value));
    return undefined;
  }
  const ref = ctx.reference(entry.value, at, 'media', 'media');
  if (ref === undefined) return undefined;
  if (ctx.attributesOf(ref.$target)?.['media_category'] !== 'AMPLIFY_VIDEO') {
    ctx.report(at, 'media-category', `media ${quoteValue(ref.$target.steps[0]?.key ?? '')} has no PREROLL asset: only a video uploaded with media_category AMPLIFY_VIDEO becomes one`, ctx.rangeOf(entry.value));
    return undefined;
  }
  return { key: `media.${ref.$target.steps[0]?.key ?? ''}`, target: { field: 'media_key', address: ref.$target } };
};

const PREROLL_TYPES: ReadonlySet<unknown> = new Set(['PREROLL', 'VAST_PREROLL']);

/** A media creative. */
export const MEDIA_CREATIVE: KindDescriptor = {
  kind: 'media_creative',
  noun: 'media creative',
  parent: 'line_item',
  parentField: 'line_item_id',
  address: { collection: 'media_creatives', key: 'value', field: 'account_media_id' },
  manifest: manifestFields<MediaCreative>('MediaCreative', { ids: ['account_media_id'], plain: ['landing_url'], special: ['media'], named: ['media'], identity: prerollIdentity }),
  generate: {},
  attributes: [
    required('line_item_id', 'id', 'replace'),
    field('account_media_id', 'id', 'replace'),
    { ...field('media_key', 'id', 'replace'), writeOnly: true },
    { ...field('landing_url', 'scalar', 'replace'), equivalent: (_desired, live, record) => live === null && PREROLL_TYPES.has(record['creative_type']) },
  ],
  computed: ['id', 'creative_type', 'entity_status', 'approval_status', 'created_at', 'updated_at', 'deleted'],
  read: listed('media_creative', 'ids'),
  write: { create, delete: deleteOne('media_creative') },
  find: { resource: 'media_creative', filter: ['line_item_ids', 'line_item_id'], identity: ['line_item_id', 'account_media_id'] },
  import: { via: 'get', resource: 'media_creative' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: true,
  owned: false,
  limits: [],
  lookups: [],
  creative: true,
  rules,
};
