/**
 * Sharing a custom audience with other ad accounts (Part B, Custom audience permissions):
 * listing, granting and revoking the permissions under `custom_audiences/:id/permissions`. Only
 * the owning account may grant or revoke; accounts of another business need the owner's
 * SHARE_AUDIENCE_OUTSIDE_BUSINESS feature (the service refuses otherwise).
 */
import type { ApiClient } from './client.js';
import type * as W from './generated/wire.js';
import { listAll } from './pagination.js';
import type { Fields } from './resources.js';

/** A permission as the service shows it. */
export type AudiencePermission = Fields<W.CustomAudiencePermission>;

/** What a grant names: the account and `READ_ONLY` or `READ_WRITE`. */
export interface AudienceGrant {
  granted_account_id: string;
  permission_level: string;
}

const permissionsPath = (accountId: string, audienceId: string): string =>
  `/12/accounts/${encodeURIComponent(accountId)}/custom_audiences/${encodeURIComponent(audienceId)}/permissions`;

/** Every live permission of an audience (all pages): all of them to its owner, its own to a granted account. */
export function listAudiencePermissions(client: ApiClient, accountId: string, audienceId: string): Promise<AudiencePermission[]> {
  return listAll<AudiencePermission>(client, { path: permissionsPath(accountId, audienceId), endpoint: 'audience_permission.list', accountId });
}

/** Shares the audience with an account; the new permission. */
export async function grantAudience(client: ApiClient, accountId: string, audienceId: string, grant: AudienceGrant): Promise<AudiencePermission> {
  const res = await client.send<{ data: AudiencePermission }>({
    method: 'POST',
    path: permissionsPath(accountId, audienceId),
    params: { granted_account_id: grant.granted_account_id, permission_level: grant.permission_level },
    endpoint: 'audience_permission.create',
    accountId,
  });
  return res.body.data;
}

/** Revokes a permission; the revoked permission (`deleted: true`). */
export async function revokeAudience(client: ApiClient, accountId: string, audienceId: string, permissionId: string): Promise<AudiencePermission> {
  const res = await client.send<{ data: AudiencePermission }>({
    method: 'DELETE',
    path: `${permissionsPath(accountId, audienceId)}/${encodeURIComponent(permissionId)}`,
    endpoint: 'audience_permission.delete',
    accountId,
  });
  return res.body.data;
}
