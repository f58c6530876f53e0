/**
 * Which account permissions allow which routes (Part A, Authenticated user access). `undefined`
 * means any user associated with the account may call the route.
 */
import type { Access } from './context.js';

export const ACCESS_PERMISSIONS: Record<Access, readonly string[] | undefined> = {
  none: undefined,
  any: undefined,
  read: ['ACCOUNT_ADMIN', 'AD_MANAGER', 'CREATIVE_MANAGER', 'CAMPAIGN_ANALYST'],
  campaign: ['ACCOUNT_ADMIN', 'AD_MANAGER'],
  creative: ['ACCOUNT_ADMIN', 'AD_MANAGER', 'CREATIVE_MANAGER'],
  admin: ['ACCOUNT_ADMIN'],
  audience: ['ACCOUNT_ADMIN', 'AD_MANAGER', 'PARTNER_AUDIENCE_MANAGER'],
};
