/**
 * The global category lookups: advertiser business categories and content categories (no
 * parameters; every record in one response) and IAB categories (`count` 1..1000 default 200,
 * `cursor`, `with_total_count`). Bearer tokens may call them.
 */
import type { ApiContext, HandlerResult } from '../context.js';
import { readListParams } from '../list.js';
import { BUSINESS_CATEGORIES } from '../lookups/business-categories.js';
import { CONTENT_CATEGORIES } from '../lookups/content-categories.js';
import { IAB_CATEGORIES } from '../lookups/iab-categories.js';
import { staticPage, wholeList } from './static-list.js';

/** `GET advertiser_business_categories`: takes no parameters. */
export function listBusinessCategories(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  return { body: wholeList(ctx.params, BUSINESS_CATEGORIES.map((c) => ({ ...c, iab_categories: [...c.iab_categories] }))) };
}

/** `GET content_categories`: the spec shows no parameters, so it takes none. */
export function listContentCategories(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  return { body: wholeList(ctx.params, CONTENT_CATEGORIES.map((c) => ({ ...c, iab_categories: [...c.iab_categories] }))) };
}

/** `GET iab_categories`: tiers and children in taxonomy order, paged. */
export function listIabCategories(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { withDeleted: false });
  p.finish();
  return { body: staticPage(p, q, IAB_CATEGORIES.map((c) => ({ ...c }))) };
}
