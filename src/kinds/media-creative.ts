/**
 * A media creative of a line item (Part A, Media creatives): no PUT. A media creative of a
 * PREROLL asset keeps `landing_url` at null whatever was sent.
 */
import type { MediaCreative } from '../manifest/generated/manifest.js';
import { field, required } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { createOne, deleteOne, listed } from './standard.js';

const PREROLL_TYPES: ReadonlySet<unknown> = new Set(['PREROLL', 'VAST_PREROLL']);

/** A media creative. */
export const MEDIA_CREATIVE: KindDescriptor = {
  kind: 'media_creative',
  noun: 'media creative',
  parent: 'line_item',
  parentField: 'line_item_id',
  address: { collection: 'media_creatives', key: 'value', field: 'account_media_id' },
  manifest: manifestFields<MediaCreative>('MediaCreative', { ids: ['account_media_id'], plain: ['landing_url'] }),
  attributes: [
    required('line_item_id', 'id', 'replace'),
    required('account_media_id', 'id', 'replace'),
    { ...field('landing_url', 'scalar', 'replace'), equivalent: (_desired, live, record) => live === null && PREROLL_TYPES.has(record['creative_type']) },
  ],
  computed: ['id', 'creative_type', 'entity_status', 'approval_status', 'created_at', 'updated_at', 'deleted'],
  read: listed('media_creative', 'ids'),
  write: { create: createOne('media_creative'), delete: deleteOne('media_creative') },
  find: { resource: 'media_creative', filter: ['line_item_ids', 'line_item_id'], identity: ['line_item_id', 'account_media_id'] },
  import: { via: 'get', resource: 'media_creative' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: true,
  owned: false,
  limits: [],
  lookups: [],
};
