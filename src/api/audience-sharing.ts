/**
 * Sharing a custom audience with other ad accounts (Part B, Custom audience permissions; Tailored
 * audience permissions at version 5): listing, granting and revoking the permissions under an
 * audience's `permissions` path. Both versions reach the same permissions, each under its own
 * version and audiences collection (`/12/accounts/:id/custom_audiences/:id/permissions`,
 * `/5/accounts/:id/tailored_audiences/:id/permissions`); which one is the caller's choice (a
 * `PermissionsEndpoint`). Only the owning account may grant or revoke; accounts of another
 * business need the owner's SHARE_AUDIENCE_OUTSIDE_BUSINESS feature (the service refuses
 * otherwise).
 */
import type { ApiClient } from './client.js';
import type * as W from './generated/wire.js';
import { listAll } from './pagination.js';
import type { Fields } from './resources.js';

/** A permission as the service shows it: at version 12 naming `custom_audience_id`, at version 5 `tailored_audience_id`. */
export type AudiencePermission = Fields<W.CustomAudiencePermission> | Fields<W.TailoredAudiencePermission>;

/** What a grant names: the account and `READ_ONLY` or `READ_WRITE`. */
export interface AudienceGrant {
  granted_account_id: string;
  permission_level: string;
}

/**
 * Where an audience's permissions are reached: the API version, the collection its audiences sit
 * in at that version, and the name its requests are counted and reported under (`<label>.list`,
 * `.create`, `.delete`).
 */
export interface PermissionsEndpoint {
  version: number;
  audiences: string;
  label: string;
}

/** The permissions of version 12 (Part B, Custom audience permissions). */
export const CUSTOM_AUDIENCE_PERMISSIONS: PermissionsEndpoint = { version: 12, audiences: 'custom_audiences', label: 'audience_permission' };

const permissionsPath = (at: PermissionsEndpoint, accountId: string, audienceId: string): string =>
  `/${at.version}/accounts/${encodeURIComponent(accountId)}/${at.audiences}/${encodeURIComponent(audienceId)}/permissions`;

/** Every live permission of an audience (all pages): all of them to its owner, its own to a granted account. */
export function listAudiencePermissions(client: ApiClient, accountId: string, audienceId: string, at: PermissionsEndpoint = CUSTOM_AUDIENCE_PERMISSIONS): Promise<AudiencePermission[]> {
  return listAll<AudiencePermission>(client, { path: permissionsPath(at, accountId, audienceId), endpoint: `${at.label}.list`, accountId });
}

/** Shares the audience with an account; the new permission. */
export async function grantAudience(client: ApiClient, accountId: string, audienceId: string, grant: AudienceGrant, at: PermissionsEndpoint = CUSTOM_AUDIENCE_PERMISSIONS): Promise<AudiencePermission> {
  const res = await client.send<{ data: AudiencePermission }>({
    method: 'POST',
    path: permissionsPath(at, accountId, audienceId),
    params: { granted_account_id: grant.granted_account_id, permission_level: grant.permission_level },
    endpoint: `${at.label}.create`,
    accountId,
  });
  return res.body.data;
}

/** Revokes a permission; the revoked permission (`deleted: true`). */
export async function revokeAudience(client: ApiClient, accountId: string, audienceId: string, permissionId: string, at: PermissionsEndpoint = CUSTOM_AUDIENCE_PERMISSIONS): Promise<AudiencePermission> {
  const res = await client.send<{ data: AudiencePermission }>({
    method: 'DELETE',
    path: `${permissionsPath(at, accountId, audienceId)}/${encodeURIComponent(permissionId)}`,
    endpoint: `${at.label}.delete`,
    accountId,
  });
  return res.body.data;
}
