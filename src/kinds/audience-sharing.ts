/**
 * How a kind of audience permission is read and written, at the version it reaches the
 * permissions through (`PermissionsEndpoint`, src/api/audience-sharing.ts). The endpoint is nested
 * under the audience, so a permission's live id is `<audience id>:<permission id>` (what a delete
 * needs), its records are read per audience, and each names its audience in `parentField`, the
 * version's name for it (`custom_audience_id` at version 12).
 */
import type { PermissionsEndpoint } from '../api/audience-sharing.js';
import type { KindDescriptor, ReadSpec } from './descriptor.js';

function splitId(id: string): [audience: string, permission: string] {
  const at = id.indexOf(':');
  return [id.slice(0, at), id.slice(at + 1)];
}

/** The permissions of every bound audience that exists, through `at`, each keyed by `<audience id>:<permission id>`. */
export function permissionsRead(at: PermissionsEndpoint, parentField: string): ReadSpec {
  return {
    via: 'custom',
    read: async (api, accountId, { parents }) => {
      const perAudience = await Promise.all(
        parents.map(async (audience) => (await api.audiencePermissions(accountId, audience, at)).map((r) => ({ ...r, [parentField]: audience, id: `${audience}:${String(r['id'])}` }))),
      );
      return perAudience.flat();
    },
  };
}

/** A grant (create) and a revoke (delete) through `at`; a permission is never changed. */
export function permissionsWrite(at: PermissionsEndpoint, parentField: string): KindDescriptor['write'] {
  return {
    create: {
      via: 'single',
      send: async (api, accountId, item) => {
        const audience = String(item.params[parentField]);
        const created = await api.grantAudience(accountId, audience, { granted_account_id: String(item.params['granted_account_id']), permission_level: String(item.params['permission_level']) }, at);
        return `${audience}:${String(created['id'])}`;
      },
    },
    delete: {
      via: 'single',
      send: async (api, accountId, item) => {
        const [audience, permission] = splitId(item.id ?? '');
        await api.revokeAudience(accountId, audience, permission, at);
        return item.id ?? '';
      },
    },
  };
}
