/**
 * A custom audience (Part B, Custom audiences): a name, unique in the account, and a
 * description, both changed by PUT. Its members (members.ts) and the accounts it is shared with
 * (audience-permission.ts) sit under it. The service targets it only once it matches at least
 * 100 users; until then its record says `targetable: false` with `reasons_not_targetable`
 * TOO_SMALL (and PROCESSING before its first upload).
 */
import type { CustomAudience } from '../manifest/generated/manifest.js';
import { field, required } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { createOne, deleteOne, listed, updateOne } from './standard.js';

/** Users a custom audience must match before the service targets it. */
const TARGETABLE_MEMBERS = 100;

/** The member count of a membership's desired value (`members.count`, from its file), when known. */
function memberCount(values: Readonly<Record<string, unknown>>): number | undefined {
  const members = values['members'];
  const count = members !== null && typeof members === 'object' ? (members as Record<string, unknown>)['count'] : undefined;
  return typeof count === 'number' ? count : undefined;
}

/** Whether a live audience record says the service does not target it for its size. */
function tooSmall(record: Readonly<Record<string, unknown>>): boolean {
  const reasons = record['reasons_not_targetable'];
  return record['targetable'] === false && Array.isArray(reasons) && reasons.includes('TOO_SMALL');
}

/** A custom audience. */
export const CUSTOM_AUDIENCE: KindDescriptor = {
  kind: 'custom_audience',
  noun: 'custom audience',
  parent: 'account',
  address: { collection: 'custom_audiences', key: 'name' },
  manifest: manifestFields<CustomAudience>('CustomAudience', { plain: ['name', 'description'], children: ['users', 'permissions'] }),
  generate: {
    comment: 'members are not read from the service and not managed here: add users: { file: ... } to manage them',
    leftOut: { each: (r) => (r['audience_type'] === 'FLEXIBLE' ? 'flexible audiences are not generated yet' : r['is_owner'] === false ? 'it is shared with this account by another, which owns it' : undefined) },
  },
  attributes: [required('name', 'scalar', 'update'), field('description', 'scalar', 'update')],
  computed: ['id', 'audience_size', 'audience_type', 'targetable', 'targetable_types', 'reasons_not_targetable', 'is_owner', 'permission_level', 'partner_source', 'owner_account_id', 'created_at', 'updated_at', 'deleted'],
  read: listed('custom_audience', 'ids'),
  write: { create: createOne('custom_audience'), update: updateOne('custom_audience'), delete: deleteOne('custom_audience') },
  find: { resource: 'custom_audience', identity: ['name'] },
  import: { via: 'get', resource: 'custom_audience' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: false,
  owned: false,
  limits: [],
  lookups: [],
  targetable: { minimum: TARGETABLE_MEMBERS, members: { kind: 'audience_members', count: memberCount }, tooSmall },
};
