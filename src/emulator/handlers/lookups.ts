/**
 * Routes of the category and rule lookups. The global ones (no `:account_id`) are global reads
 * that bearer tokens may call; curated categories are read per account by its users.
 */
import type { RouteDef } from '../context.js';
import { listBusinessCategories, listContentCategories, listIabCategories } from './category-lookups.js';
import { getCuratedCategory, listCuratedCategories } from './curated-categories.js';
import { listBiddingRules, listPlacements } from './rule-lookups.js';

/** The lookup endpoints, registered in routes.ts. */
export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/advertiser_business_categories', family: 'global_read', access: 'none', appOnly: true, handler: listBusinessCategories },
  { method: 'GET', path: '/12/iab_categories', family: 'global_read', access: 'none', appOnly: true, handler: listIabCategories },
  { method: 'GET', path: '/12/content_categories', family: 'global_read', access: 'none', appOnly: true, handler: listContentCategories },
  { method: 'GET', path: '/12/bidding_rules', family: 'global_read', access: 'none', appOnly: true, handler: listBiddingRules },
  { method: 'GET', path: '/12/line_items/placements', family: 'global_read', access: 'none', appOnly: true, handler: listPlacements },
  { method: 'GET', path: '/12/accounts/:account_id/curated_categories', family: 'account_read', access: 'any', handler: listCuratedCategories },
  {
    method: 'GET',
    path: '/12/accounts/:account_id/curated_categories/:curated_category_id',
    family: 'account_read',
    access: 'any',
    handler: getCuratedCategory,
  },
];
