/**
 * Curated categories of an account: the list (`country_codes` comma filter keeping categories
 * available in any of the given countries, `count` and `cursor`; the response always carries
 * `total_count`) and the lookup by id. The spec shows no further parameters, so no others are taken.
 */
import type { ApiContext, HandlerResult } from '../context.js';
import { single } from '../envelope.js';
import { notFound } from '../errors.js';
import { readListParams } from '../list.js';
import { CURATED_CATEGORIES, curatedCategory, type CuratedCategory } from '../lookups/curated-categories.js';
import type { Rec } from '../store/row.js';
import { accountIdOf } from './common.js';
import { staticPage } from './static-list.js';

const toWire = (c: CuratedCategory): Rec => ({ ...c, country_codes: [...c.country_codes], publisher_user_ids: [...c.publisher_user_ids] });

/** `GET accounts/:account_id/curated_categories`. */
export function listCuratedCategories(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const q = readListParams(p, { withDeleted: false, withTotalCount: false });
  const countries = p.list('country_codes', { max: 200, pattern: /^[A-Za-z]{2}$/, typeName: 'a two-letter country code' });
  p.finish();
  const wanted = countries === undefined ? undefined : new Set(countries.map((c) => c.toUpperCase()));
  const rows = CURATED_CATEGORIES.filter((c) => wanted === undefined || c.country_codes.some((cc) => wanted.has(cc)));
  return { body: staticPage(p, q, rows.map(toWire), true) };
}

/** `GET accounts/:account_id/curated_categories/:curated_category_id`. */
export function getCuratedCategory(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  p.finish();
  const id = ctx.pathParams['curated_category_id'] ?? '';
  const category = curatedCategory(id);
  if (category === undefined) throw notFound('Curated category', id, accountIdOf(ctx), 'curated_category_id');
  return { body: single(p, toWire(category)) };
}
