/**
 * An account a custom audience is shared with, through version 5 of the API (Part B, Tailored
 * audience permissions: `/5/accounts/:id/tailored_audiences/:id/permissions`, records naming
 * `tailored_audience_id`). The service keeps one set of permissions for both versions, so its
 * records are those of `audience_permission` (`sameRecordsAs`): a grant listed here is not one
 * "added outside adsctl" for the version 12 kind, and a grant made by hand is reported once, by
 * that kind. Created and revoked, never changed (a new level is a replacement); bound only
 * through its audience. A grant is listed under `permissions` or `tailored_permissions`, not both.
 */
import type { PermissionsEndpoint } from '../api/audience-sharing.js';
import { required } from './attribute.js';
import { permissionsRead, permissionsWrite } from './audience-sharing.js';
import type { KindDescriptor } from './descriptor.js';

/** Where version 5 reaches an audience's permissions. */
const V5: PermissionsEndpoint = { version: 5, audiences: 'tailored_audiences', label: 'tailored_audience_permission' };

/** A tailored audience permission (an audience permission at version 5). */
export const TAILORED_AUDIENCE_PERMISSION: KindDescriptor = {
  kind: 'tailored_audience_permission',
  noun: 'tailored audience permission',
  parent: 'custom_audience',
  parentField: 'tailored_audience_id',
  address: { collection: 'tailored_permissions', key: 'value', field: 'granted_account_id' },
  // written as `<granted account id>: <level>` (PermissionLevel), as version 12's permissions
  manifest: { def: 'PermissionLevel', plain: [], ids: [], money: {}, times: [], refs: {}, special: [], children: [], entries: { form: 'map', valueField: 'permission_level' } },
  attributes: [
    required('tailored_audience_id', 'id', 'replace'),
    { ...required('granted_account_id', 'id', 'replace'), identity: true },
    required('permission_level', 'scalar', 'replace'),
  ],
  computed: ['id', 'created_at', 'updated_at', 'deleted'],
  read: permissionsRead(V5, 'tailored_audience_id'),
  write: permissionsWrite(V5, 'tailored_audience_id'),
  import: { via: 'manifest', hint: 'a permission is bound when its audience is: list it under the audience' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: true,
  owned: false,
  sameRecordsAs: 'audience_permission',
  limits: [],
  lookups: [],
};
