/**
 * Attribute rules of a line item's children, from the emulator's handlers:
 * - targeting criteria (targeting-criteria.ts) have no PUT: every field forces a replacement;
 *   `operator_type` defaults to EQ, which the address key already says;
 * - promoted posts (promoted-tweets.ts) have no PUT; the post id is the address key and is not
 *   compared, because the service answers the id of a promoted-only repost for a post of a
 *   RETWEETS_ONLY promotable user;
 * - promoted accounts and media creatives have no PUT; a media creative of a PREROLL asset keeps
 *   `landing_url` at null whatever was sent;
 * - line item curated categories may move to another line item or category by PUT.
 */
import { field, type KindRules } from './field-rule.js';

const PREROLL_TYPES: ReadonlySet<unknown> = new Set(['PREROLL', 'VAST_PREROLL']);

/** A targeting criterion: delete and create only. */
export const TARGETING_CRITERION_RULES: KindRules = {
  kind: 'targeting_criterion',
  fields: [
    field('line_item_id', 'id', 'replace'),
    field('targeting_type', 'scalar', 'replace'),
    field('targeting_value', 'id', 'replace'),
    { ...field('operator_type', 'scalar', 'replace'), fallback: () => 'EQ' },
  ],
  aliases: { custom_audience: 'targeting_value' },
};

/** A promoted post: delete and create only; the post id is its identity. */
export const PROMOTED_POST_RULES: KindRules = {
  kind: 'promoted_post',
  fields: [field('line_item_id', 'id', 'replace'), { ...field('tweet_id', 'id', 'replace'), identity: true }],
};

/** A promoted account: delete and create only. */
export const PROMOTED_ACCOUNT_RULES: KindRules = {
  kind: 'promoted_account',
  fields: [field('line_item_id', 'id', 'replace'), field('user_id', 'id', 'replace')],
};

/** A media creative: delete and create only. */
export const MEDIA_CREATIVE_RULES: KindRules = {
  kind: 'media_creative',
  fields: [
    field('line_item_id', 'id', 'replace'),
    field('account_media_id', 'id', 'replace'),
    { ...field('landing_url', 'scalar', 'replace'), equivalent: (_desired, live, record) => live === null && PREROLL_TYPES.has(record['creative_type']) },
  ],
};

/** A line item curated category: both fields updatable. */
export const LINE_ITEM_CURATED_CATEGORY_RULES: KindRules = {
  kind: 'line_item_curated_category',
  fields: [field('line_item_id', 'id', 'update'), field('curated_category_id', 'id', 'update')],
};
