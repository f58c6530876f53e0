/**
 * The service's limits that more than one stage needs (Part A and Part B, Limits), in one table:
 * the descriptors' account limits, the manifest's offline checks, the users requests the client
 * sends and the member sync packs, and the sizes of the files a manifest names (checked by the
 * manifest stage, the plan and apply) all read them here, so a limit is written once.
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
  /**
   * Largest media file the upload service takes, by media type, in bytes: images 5 MiB, GIFs
   * 15 MiB, videos 512 MiB (docs/service-behaviour.md, "File sizes").
   */
  mediaImageBytes: 5 * 1024 * 1024,
  mediaGifBytes: 15 * 1024 * 1024,
  mediaVideoBytes: 512 * 1024 * 1024,
  /** Largest member list the service takes, in bytes: 10 GB (docs/service-behaviour.md, "File sizes"). */
  memberFileBytes: 10_000_000_000,
} as const;
