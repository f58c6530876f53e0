/**
 * The targeting types whose values the service looks up, and the lookup of each
 * (`GET /12/targeting_criteria/<lookup>`, docs/service-behaviour.md, "Targeting criteria"): a
 * criterion of one of these types is created only with a value its lookup lists, so the plan
 * checks the values of the criteria it creates against those lookups. Types whose values are not
 * listed by a lookup (keywords, audiences, users, campaigns, age buckets, genders, durations) are
 * not here.
 */

/** A targeting option lookup: the last segment of `GET /12/targeting_criteria/<lookup>`. */
export type TargetingLookup =
  | 'app_store_categories'
  | 'conversations'
  | 'devices'
  | 'events'
  | 'interests'
  | 'languages'
  | 'locations'
  | 'network_operators'
  | 'platform_versions'
  | 'platforms'
  | 'tv_shows';

/** The lookup listing the values of each lookup-backed targeting type. */
export const TARGETING_LOOKUPS: Readonly<Record<string, TargetingLookup>> = {
  LOCATION: 'locations',
  LANGUAGE: 'languages',
  INTEREST: 'interests',
  PLATFORM: 'platforms',
  PLATFORM_VERSION: 'platform_versions',
  DEVICE: 'devices',
  NETWORK_OPERATOR: 'network_operators',
  APP_STORE_CATEGORY: 'app_store_categories',
  APP_STORE_CATEGORY_LOOKALIKE: 'app_store_categories',
  CONVERSATION: 'conversations',
  EVENT: 'events',
  TV_SHOW: 'tv_shows',
};

/** The lookup of `targetingType`, or undefined when the service looks its values up nowhere. */
export function targetingLookupOf(targetingType: unknown): TargetingLookup | undefined {
  return typeof targetingType === 'string' && Object.hasOwn(TARGETING_LOOKUPS, targetingType) ? TARGETING_LOOKUPS[targetingType] : undefined;
}
