/**
 * An account a custom audience is shared with (Part B, Custom audience permissions): created and
 * deleted under the audience's path, never changed (a new level is a replacement). The manifest
 * owns an audience's permissions as a whole: one granted by hand is drift, planned for removal.
 * The endpoint is nested under the audience, so the live id is `<audience id>:<permission id>`
 * (what a delete needs), and the records are read per audience.
 */
import { required } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';

function splitId(id: string): [audience: string, permission: string] {
  const at = id.indexOf(':');
  return [id.slice(0, at), id.slice(at + 1)];
}

/** A custom audience permission. */
export const AUDIENCE_PERMISSION: KindDescriptor = {
  kind: 'audience_permission',
  noun: 'audience permission',
  parent: 'custom_audience',
  parentField: 'custom_audience_id',
  address: { collection: 'permissions', key: 'value', field: 'granted_account_id' },
  // the manifest writes a permission as `<granted account id>: <level>` (PermissionLevel)
  manifest: { def: 'PermissionLevel', plain: [], ids: [], money: {}, times: [], refs: {}, special: [], children: [], entries: { form: 'map', valueField: 'permission_level' } },
  attributes: [
    required('custom_audience_id', 'id', 'replace'),
    { ...required('granted_account_id', 'id', 'replace'), identity: true },
    required('permission_level', 'scalar', 'replace'),
  ],
  computed: ['id', 'created_at', 'updated_at', 'deleted'],
  read: {
    via: 'custom',
    read: async (api, accountId, { parents }) => {
      const perAudience = await Promise.all(
        parents.map(async (audience) => (await api.audiencePermissions(accountId, audience)).map((r) => ({ ...r, custom_audience_id: audience, id: `${audience}:${String(r['id'])}` }))),
      );
      return perAudience.flat();
    },
  },
  write: {
    create: {
      via: 'single',
      send: async (api, accountId, item) => {
        const audience = String(item.params['custom_audience_id']);
        const created = await api.grantAudience(accountId, audience, { granted_account_id: String(item.params['granted_account_id']), permission_level: String(item.params['permission_level']) });
        return `${audience}:${String(created['id'])}`;
      },
    },
    delete: {
      via: 'single',
      send: async (api, accountId, item) => {
        const [audience, permission] = splitId(item.id ?? '');
        await api.revokeAudience(accountId, audience, permission);
        return item.id ?? '';
      },
    },
  },
  import: { via: 'manifest', hint: 'a permission is bound when its audience is: list it under the audience' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: true,
  owned: true,
  limits: [],
  lookups: [],
};
