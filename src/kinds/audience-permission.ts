/**
 * An account a custom audience is shared with (Part B, Custom audience permissions): created and
 * deleted under the audience's path, never changed (a new level is a replacement). The manifest
 * owns an audience's permissions as a whole: one granted by hand is drift, planned for removal.
 * Read and written at version 12 (kinds/audience-sharing.ts): the live id is
 * `<audience id>:<permission id>`, and the records are read per audience.
 */
import { CUSTOM_AUDIENCE_PERMISSIONS as V12 } from '../api/audience-sharing.js';
import { required } from './attribute.js';
import { permissionsRead, permissionsWrite } from './audience-sharing.js';
import type { KindDescriptor } from './descriptor.js';

/** A custom audience permission. */
export const AUDIENCE_PERMISSION: KindDescriptor = {
  kind: 'audience_permission',
  noun: 'audience permission',
  parent: 'custom_audience',
  parentField: 'custom_audience_id',
  address: { collection: 'permissions', key: 'value', field: 'granted_account_id' },
  // the manifest writes a permission as `<granted account id>: <level>` (PermissionLevel)
  manifest: { def: 'PermissionLevel', plain: [], ids: [], money: {}, times: [], refs: {}, special: [], children: [], entries: { form: 'map', valueField: 'permission_level' } },
  generate: {},
  attributes: [
    required('custom_audience_id', 'id', 'replace'),
    { ...required('granted_account_id', 'id', 'replace'), identity: true },
    required('permission_level', 'scalar', 'replace'),
  ],
  computed: ['id', 'created_at', 'updated_at', 'deleted'],
  read: permissionsRead(V12, 'custom_audience_id'),
  write: permissionsWrite(V12, 'custom_audience_id'),
  import: { via: 'manifest', hint: 'a permission is bound when its audience is: list it under the audience' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: true,
  owned: true,
  limits: [],
  lookups: [],
};
