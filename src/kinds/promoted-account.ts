/** A promoted account of a line item (Part A, Promoted accounts): no PUT, one POST each. */
import type { PromotedAccount } from '../manifest/generated/manifest.js';
import { required } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { createOne, deleteOne, listed } from './standard.js';

/** A promoted account. */
export const PROMOTED_ACCOUNT: KindDescriptor = {
  kind: 'promoted_account',
  noun: 'promoted account',
  parent: 'line_item',
  parentField: 'line_item_id',
  address: { collection: 'promoted_accounts', key: 'value', field: 'user_id' },
  manifest: manifestFields<PromotedAccount>('PromotedAccount', { ids: ['user_id'] }),
  generate: {},
  attributes: [required('line_item_id', 'id', 'replace'), required('user_id', 'id', 'replace')],
  computed: ['id', 'entity_status', 'approval_status', 'created_at', 'updated_at', 'deleted'],
  // the list refuses line items not configured for promoted accounts
  read: listed('promoted_account', 'parent', { parentParam: 'line_item_ids', parentWhere: (li) => li['product_type'] === 'PROMOTED_ACCOUNT' }),
  write: { create: createOne('promoted_account'), delete: deleteOne('promoted_account') },
  find: { resource: 'promoted_account', filter: ['line_item_ids', 'line_item_id'], identity: ['line_item_id', 'user_id'] },
  import: { via: 'get', resource: 'promoted_account' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: true,
  owned: true,
  history: 'PROMOTED_ACCOUNT',
  limits: [],
  lookups: [],
  creative: true,
};
