/**
 * The account's do-not-reach list (Part B, Do-not-reach list): at most one, created with an
 * optional description and deleted; there is no PUT, so a new description is a replacement. Its
 * users (members.ts) sit under it.
 */
import type { DoNotReach } from '../manifest/generated/manifest.js';
import { field } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { createOne, deleteOne } from './standard.js';

/** The do-not-reach list. */
export const DO_NOT_REACH_LIST: KindDescriptor = {
  kind: 'do_not_reach_list',
  noun: 'do-not-reach list',
  parent: 'account',
  address: { collection: 'do_not_reach', key: 'single' },
  manifest: manifestFields<DoNotReach>('DoNotReach', { plain: ['description'], children: ['users'] }),
  generate: { comment: 'its users are not read from the service and not managed here: add users: { file: ... } to manage them' },
  attributes: [field('description', 'scalar', 'replace')],
  computed: ['id', 'created_at', 'updated_at', 'deleted'],
  read: {
    via: 'custom',
    read: async (api, accountId, { bound }) => (bound.size === 0 ? [] : (await api.doNotReachLists(accountId)).filter((r) => bound.has(String(r['id'])))),
    whole: async (api, accountId) => await api.doNotReachLists(accountId),
  },
  write: { create: createOne('do_not_reach_list'), delete: deleteOne('do_not_reach_list') },
  find: { resource: 'do_not_reach_list', identity: [] },
  import: { via: 'read' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: false,
  owned: false,
  limits: [],
  lookups: [],
};
