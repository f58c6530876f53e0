/**
 * The service's limits that more than one stage needs (Part A and Part B, Limits), in one table:
 * the descriptors' account limits, the manifest's offline checks, and the users requests the
 * client sends and the member sync packs all read them here, so a limit is written once.
 */
export const SERVICE_LIMITS = {
  /** Active campaigns an account may have unless its limit was raised. */
  activeCampaigns: 200,
  /** Active line items an account may have across its campaigns. */
  activeLineItems: 256,
  /** Line items one campaign may have. */
  lineItemsPerCampaign: 100,
  /** Most operation objects in one users request body. */
  usersOperations: 2_500,
  /** Largest users request body, in bytes. */
  usersBodyBytes: 5_000_000,
} as const;
