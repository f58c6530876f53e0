/**
 * The kinds of resource a manifest can manage (docs/architecture.md, "Resource kinds"). Each has
 * one descriptor in this folder; a kind is added here, in its own file, and in registry.ts.
 * Manifest sections of the API's other objects (cards, audiences, ...) are refused by validate
 * until their kinds exist (see unsupported.ts).
 */
export type ResourceKind =
  | 'account'
  | 'account_feature'
  | 'funding_instrument'
  | 'campaign'
  | 'line_item'
  | 'targeting_criterion'
  | 'line_item_curated_category'
  | 'promoted_post'
  | 'promoted_account'
  | 'media_creative';
