/**
 * Audience estimate (Part A): the approximate audience of a set of targeting criteria, sent as the
 * JSON body `{"targeting_criteria": [{"targeting_type", "targeting_value", "operator_type"}]}`.
 *
 * Each criterion needs a known `targeting_type` (the service's types, docs/service-behaviour.md, "Targeting criteria"; otherwise
 * INVALID_TARGETING_TYPE) and a `targeting_value`; `operator_type` is EQ or NE, default EQ; other
 * keys are refused. At least one primary criterion (followers and similar-to-followers, custom
 * audiences, interests, keywords, TV) with operator EQ is required, else INVALID_PARAMETER: an
 * exclusion alone defines no audience. The echo holds the criteria as understood, defaults filled.
 *
 * The estimate is deterministic, a function of the set of criteria and not of their order, and
 * follows the targeting semantics: primary criteria are unioned (each adds its own audience);
 * other criteria narrow it, ORed within one type and ANDed across types (each type keeps a share
 * of the audience); every exclusion (NE) removes a share. Adding a non-primary criterion or an
 * exclusion therefore never widens the estimate. `min` and `max` bracket it by 5%.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { WireError, badRequest, combine, invalidParameter, missingParameter } from '../errors.js';
import { TARGETING_TYPES } from './targeting-rules.js';


/** The primary types: followers, custom audiences, interests, keywords and TV. */
const PRIMARY_TARGETING_TYPES: ReadonlySet<string> = new Set([
  'FOLLOWERS_OF_USER', 'SIMILAR_TO_FOLLOWERS_OF_USER', 'CUSTOM_AUDIENCE', 'CUSTOM_AUDIENCE_EXPANDED', 'INTEREST',
  'BROAD_KEYWORD', 'EXACT_KEYWORD', 'PHRASE_KEYWORD', 'UNORDERED_KEYWORD', 'TV_SHOW', 'LIVE_TV_EVENT',
]);

const OPERATORS = ['EQ', 'NE'] as const;
const ITEM_KEYS: ReadonlySet<string> = new Set(['targeting_type', 'targeting_value', 'operator_type']);

interface Criterion {
  targeting_type: string;
  targeting_value: string;
  operator_type: (typeof OPERATORS)[number];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads one criterion, adding its problems to `errors`. */
function readCriterion(item: unknown, index: number, errors: WireError[]): Criterion | undefined {
  const at = `targeting_criteria[${index}]`;
  if (!isObject(item)) {
    errors.push(invalidParameter('targeting_criteria', `Expected an object, got ${JSON.stringify(item)} for ${at}`));
    return undefined;
  }
  const before = errors.length;
  for (const key of Object.keys(item)) if (!ITEM_KEYS.has(key)) errors.push(invalidParameter(key, `setting ${key} is not allowed in ${at}`));
  const type = item['targeting_type'];
  if (type === undefined || type === '') errors.push(missingParameter('targeting_type'));
  else if (typeof type !== 'string' || !(TARGETING_TYPES as readonly string[]).includes(type)) {
    errors.push(badRequest('INVALID_TARGETING_TYPE', `Unknown targeting_type ${JSON.stringify(type)} in ${at}`, 'targeting_type'));
  }
  const value = item['targeting_value'];
  if (value === undefined || value === '') errors.push(missingParameter('targeting_value'));
  else if (typeof value !== 'string' && typeof value !== 'number') {
    errors.push(invalidParameter('targeting_value', `Expected String, got ${JSON.stringify(value)} for targeting_value in ${at}`));
  }
  const operator = item['operator_type'] ?? 'EQ';
  if (typeof operator !== 'string' || !(OPERATORS as readonly string[]).includes(operator)) {
    errors.push(invalidParameter('operator_type', `Expected a value in EQ, NE, got ${JSON.stringify(operator)} for operator_type in ${at}`));
  }
  if (errors.length > before) return undefined;
  return { targeting_type: type as string, targeting_value: String(value), operator_type: operator as Criterion['operator_type'] };
}

/** A stable fraction in [0, 1) for a criterion (FNV-1a over its type and value). */
function fraction(c: Criterion): number {
  let h = 0x811c9dc5;
  for (const ch of `${c.targeting_type}\u0000${c.targeting_value}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}

const WORLD = 400_000_000;

/** The estimated audience of criteria that include at least one EQ primary criterion. */
function estimateAudience(criteria: readonly Criterion[]): { min: number; max: number } {
  const unique = new Map(criteria.map((c) => [`${c.operator_type}\u0000${c.targeting_type}\u0000${c.targeting_value}`, c]));
  let union = 0;
  const shares = new Map<string, number>();
  let exclusion = 1;
  for (const c of unique.values()) {
    const f = fraction(c);
    if (c.operator_type === 'NE') exclusion *= 1 - (0.01 + 0.14 * f);
    else if (PRIMARY_TARGETING_TYPES.has(c.targeting_type)) union += 200_000 + Math.floor(f * 20_000_000);
    else shares.set(c.targeting_type, Math.min(1, (shares.get(c.targeting_type) ?? 0) + 0.05 + 0.45 * f));
  }
  let size = Math.min(union, WORLD) * exclusion;
  for (const share of shares.values()) size *= share;
  const point = Math.max(1, Math.round(size));
  return { min: Math.floor(point * 0.95), max: Math.ceil(point * 1.05) };
}

function postAudienceEstimate(ctx: ApiContext): HandlerResult {
  ctx.params.finish();
  const body = ctx.json;
  const errors: WireError[] = [];
  if (body !== undefined && !isObject(body)) throw invalidParameter('body', 'Expected a JSON object with targeting_criteria');
  const fields = body ?? {};
  for (const key of Object.keys(fields)) if (key !== 'targeting_criteria') errors.push(invalidParameter(key, `setting ${key} is not allowed`));
  const raw = fields['targeting_criteria'];
  const criteria: Criterion[] = [];
  if (raw === undefined || raw === null) errors.push(missingParameter('targeting_criteria'));
  else if (!Array.isArray(raw)) errors.push(invalidParameter('targeting_criteria', `Expected an array, got ${JSON.stringify(raw)} for targeting_criteria`));
  else if (raw.length === 0) errors.push(invalidParameter('targeting_criteria', 'A minimum of 1 items must be provided for targeting_criteria'));
  else {
    raw.forEach((item, i) => {
      const c = readCriterion(item, i, errors);
      if (c !== undefined) criteria.push(c);
    });
    if (errors.length === 0 && !criteria.some((c) => c.operator_type === 'EQ' && PRIMARY_TARGETING_TYPES.has(c.targeting_type))) {
      errors.push(invalidParameter('targeting_criteria', 'At least one primary targeting criterion (followers, custom audience, interest, keyword or TV) with operator_type EQ is required'));
    }
  }
  if (errors.length > 0) throw combine(errors);
  return { body: { request: { params: { ...ctx.params.echo, targeting_criteria: criteria } }, data: { audience_size: estimateAudience(criteria) } } };
}

/** The audience estimate route: a JSON POST that changes nothing, so campaign data readers may call it. */
export const routes: RouteDef[] = [
  // a read that takes a JSON body: it changes nothing, so it draws from the read budget
  { method: 'POST', path: '/12/accounts/:account_id/audience_estimate', family: 'account_read', access: 'read', jsonBody: true, handler: postAudienceEstimate },
];
