/**
 * A curated category attached to a line item (Part A, Line item curated categories): both fields
 * may move by PUT; the category must be one the account can use (checked against the account's
 * curated categories when planned).
 */
import type { LineItemCuratedCategory } from '../manifest/generated/manifest.js';
import { required } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { createOne, deleteOne, listed, updateOne } from './standard.js';

/** A line item curated category. */
export const LINE_ITEM_CURATED_CATEGORY: KindDescriptor = {
  kind: 'line_item_curated_category',
  noun: 'line item curated category',
  parent: 'line_item',
  parentField: 'line_item_id',
  address: { collection: 'curated_categories', key: 'value', field: 'curated_category_id' },
  manifest: manifestFields<LineItemCuratedCategory>('LineItemCuratedCategory', { ids: ['curated_category_id'] }),
  generate: {},
  attributes: [required('line_item_id', 'id', 'update'), required('curated_category_id', 'id', 'update')],
  computed: ['id', 'created_at', 'updated_at', 'deleted'],
  // the list has no line item filter: the account's whole list
  read: listed('line_item_curated_category', 'whole'),
  write: { create: createOne('line_item_curated_category'), update: updateOne('line_item_curated_category'), delete: deleteOne('line_item_curated_category') },
  find: { resource: 'line_item_curated_category', filter: ['line_item_ids', 'line_item_id'], identity: ['line_item_id', 'curated_category_id'] },
  import: { via: 'get', resource: 'line_item_curated_category' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: true,
  owned: true,
  limits: [],
  lookups: [{ need: 'curated_categories', field: 'curated_category_id' }],
};
