/**
 * An account feature (sandbox): a key granted to the account. The key is its identity; features
 * are granted and withdrawn, never updated, all keys of an apply in one comma list.
 */
import type { AccountFeature } from '../manifest/generated/manifest.js';
import { field } from './attribute.js';
import type { KindDescriptor, WriteItem } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';

/** Feature keys per add or remove request. */
const KEYS_PER_REQUEST = 100;

/** The key of a feature write: the key to grant, or the id (the key) of the one to withdraw. */
const keyOf = (item: WriteItem): string => String(item.params['feature_key'] ?? item.id);

/** An account feature. */
export const ACCOUNT_FEATURE: KindDescriptor = {
  kind: 'account_feature',
  noun: 'account feature',
  parent: 'account',
  address: { collection: 'features', key: 'feature' },
  manifest: manifestFields<AccountFeature>('AccountFeature', { special: ['feature_key'] }),
  generate: {},
  attributes: [{ ...field('feature_key', 'scalar', 'replace'), identity: true }],
  computed: [],
  read: { via: 'features' },
  write: {
    create: { via: 'list', limit: KEYS_PER_REQUEST, send: async (api, accountId, items) => void (await api.changeFeatures(accountId, 'POST', items.map(keyOf))) },
    delete: { via: 'list', limit: KEYS_PER_REQUEST, send: async (api, accountId, items) => void (await api.changeFeatures(accountId, 'DELETE', items.map(keyOf))) },
  },
  import: { via: 'manifest', hint: 'a feature already granted is adopted by its key' },
  replaceOrder: 'delete-first',
  sandboxOnly: true,
  retiredWithParent: false,
  owned: false,
  limits: [],
  lookups: [],
};
