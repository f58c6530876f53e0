/**
 * Placement combinations per product type (`GET line_items/placements`). The platform name inside
 * placement values is spelled SERVICE, as in the spec.
 */

export type ProductType = 'MEDIA' | 'PROMOTED_ACCOUNT' | 'PROMOTED_TWEETS';

export const PRODUCT_TYPES: readonly ProductType[] = ['MEDIA', 'PROMOTED_ACCOUNT', 'PROMOTED_TWEETS'];

/** Every placement value the emulator knows. */
export const PLACEMENTS = [
  'ALL_ON_SERVICE',
  'PUBLISHER_NETWORK',
  'SERVICE_PROFILE',
  'SERVICE_REPLIES',
  'SERVICE_SEARCH',
  'SERVICE_TIMELINE',
] as const;

/** Each inner array is one valid combination of placements for the product type. */
export const PLACEMENT_COMBINATIONS: Record<ProductType, readonly (readonly string[])[]> = {
  PROMOTED_TWEETS: [
    ['ALL_ON_SERVICE'],
    ['ALL_ON_SERVICE', 'PUBLISHER_NETWORK'],
    ['PUBLISHER_NETWORK'],
    ['PUBLISHER_NETWORK', 'SERVICE_TIMELINE'],
    ['SERVICE_PROFILE', 'SERVICE_TIMELINE'],
    ['SERVICE_REPLIES', 'SERVICE_TIMELINE'],
    ['SERVICE_SEARCH'],
    ['SERVICE_SEARCH', 'SERVICE_TIMELINE'],
    ['SERVICE_TIMELINE'],
  ],
  PROMOTED_ACCOUNT: [['ALL_ON_SERVICE'], ['SERVICE_SEARCH'], ['SERVICE_SEARCH', 'SERVICE_TIMELINE'], ['SERVICE_TIMELINE']],
  MEDIA: [['ALL_ON_SERVICE'], ['PUBLISHER_NETWORK']],
};

/** True when `placements` (in any order, no duplicates) is one of the product type's combinations. */
export function isValidCombination(productType: ProductType, placements: readonly string[]): boolean {
  const wanted = [...new Set(placements)].sort().join(',');
  if (wanted.split(',').length !== placements.length) return false;
  return PLACEMENT_COMBINATIONS[productType].some((combo) => [...combo].sort().join(',') === wanted);
}
