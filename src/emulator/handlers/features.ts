/**
 * Account features (Part A, Account feature, Features): the limited-release feature keys granted
 * to an account, kept in the account's private `ext.features`. GET lists them (optionally only
 * those among the spec's filter values); the sandbox-only POST and DELETE grant and withdraw the
 * spec's sandbox keys. Every answer's `data` is the account's full resulting key array, sorted,
 * as in the service's examples. POST answers 200, not 201: it changes a setting and creates no
 * record.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { single } from '../envelope.js';
import { invalidParameter } from '../errors.js';
import type { ParamReader } from '../params.js';
import type { Row } from '../store/row.js';

/** The only values the read endpoint's `feature_keys` filter takes. */
const FEATURE_FILTER_KEYS = ['REACH_AND_FREQUENCY_ANALYTICS', 'REACH_FREQUENCY_CAP', 'WEBSITE_CLICKS_CPM_BILLING'] as const;

/** The keys a sandbox account may be granted or have withdrawn. */
const SANDBOX_FEATURE_KEYS = [
  'AGE_TARGETING',
  'ALLOW_SKIPPABLE_VIDEOS_FOR_PREROLL_VIEWS_OBJECTIVE',
  'AWARENESS_OBJECTIVE',
  'BRAND_TPN',
  'CHARGE_FOR_GOOD_CLICK',
  'CONVERSATION_CARD',
  'CONVERSATION_CARD_FOUR_OPTIONS',
  'CONVERSATION_CARD_UNLOCK',
  'CPI_CHARGING',
  'DIRECT_MESSAGE_CARD',
  'DR_TAP',
  'ENGAGER_RETARGETING',
  'EVENT_TARGETING',
  'INSTALLED_APP_CATEGORY_TARGETING',
  'MOBILE_CONVERSION_TRANSACTION_VALUE',
  'OPTIMIZED_ACTION_BIDDING',
  'REACH_AND_FREQUENCY_ANALYTICS',
  'REACH_FREQUENCY_CAP',
  'VALIDATED_AGE_TARGETING',
  'VIDEO_VIEWS_MIDROLL_OBJECTIVE',
  'PREROLL_VIEWS_OBJECTIVE',
  'VIDEO_APP_DOWNLOAD_CARD',
  // lets the account share custom audiences outside its business (Part B, permissions)
  'SHARE_AUDIENCE_OUTSIDE_BUSINESS',
] as const;

/** The feature keys granted to `account`. */
export function accountFeatures(account: Row): string[] {
  const features = account.ext['features'];
  return Array.isArray(features) ? features.map(String) : [];
}

/** Reads `feature_keys` as a comma list whose every value is one of `allowed`. */
function readKeys(p: ParamReader, allowed: readonly string[], required: boolean): string[] | undefined {
  const keys = p.list('feature_keys', { required });
  const bad = keys?.find((k) => !allowed.includes(k));
  if (bad !== undefined) {
    p.fail(invalidParameter('feature_keys', `Expected a value in ${allowed.join(', ')}, got ${JSON.stringify(bad)} for feature_keys`));
    return undefined;
  }
  return keys;
}

const sorted = (keys: Iterable<string>): string[] => [...new Set(keys)].sort();

function listFeatures(ctx: ApiContext): HandlerResult {
  const p = ctx.params;
  const filter = readKeys(p, FEATURE_FILTER_KEYS, false);
  p.finish();
  const granted = accountFeatures(ctx.account!);
  return { body: single(p, sorted(filter === undefined ? granted : granted.filter((k) => filter.includes(k)))) };
}

/** POST (`grant`) or DELETE (withdraw) of sandbox feature keys; answers the full resulting array. */
function changeFeatures(ctx: ApiContext, grant: boolean): HandlerResult {
  const p = ctx.params;
  const keys = readKeys(p, SANDBOX_FEATURE_KEYS, true) ?? [];
  p.finish();
  const account = ctx.account!;
  const current = accountFeatures(account);
  const next = sorted(grant ? [...current, ...keys] : current.filter((k) => !keys.includes(k)));
  ctx.store.update(account, {}, { features: next });
  return { body: single(p, [...next]) };
}

/** Feature routes; POST and DELETE exist only at the sandbox base URL and need ACCOUNT_ADMIN. */
export const routes: RouteDef[] = [
  { method: 'GET', path: '/12/accounts/:account_id/features', family: 'account_read', access: 'any', handler: listFeatures },
  { method: 'POST', path: '/12/accounts/:account_id/features', family: 'write', access: 'admin', sandboxOnly: true, handler: (ctx) => changeFeatures(ctx, true) },
  { method: 'DELETE', path: '/12/accounts/:account_id/features', family: 'write', access: 'admin', sandboxOnly: true, handler: (ctx) => changeFeatures(ctx, false) },
];
