/**
 * The kinds of resource a manifest can manage (docs/architecture.md, "Resource kinds"). Each has
 * one descriptor in this folder; a kind is added here, in its own file, and in registry.ts.
 * The schema (schemas/manifest.schema.json) describes exactly these kinds.
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
  | 'media_creative'
  | 'media'
  | 'card'
  | 'conversation_card'
  | 'post'
  | 'draft_post'
  | 'scheduled_post'
  | 'custom_audience'
  | 'flexible_audience'
  | 'audience_members'
  | 'audience_permission'
  | 'tailored_audience_permission'
  | 'do_not_reach_list'
  | 'do_not_reach_members';
