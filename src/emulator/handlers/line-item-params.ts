/**
 * Reading the writable line item parameters shared by POST and PUT (docs/service-behaviour.md, "Line items"). The result is
 * a patch holding only the fields that were sent; an empty value of a nullable field is null
 * (unset). Fields outside the endpoint's list are refused by `ParamReader.finish` with
 * "setting X is not allowed" — on both, advertiser_user_id (filled in by the server) and, on POST,
 * the read-only target_cpa_local_micro. On PUT, the fields a PUT cannot change (campaign_id,
 * objective, product_type, placements, standard_delivery, primary_web_event_tag, ...) are read-only
 * attributes (line-item-write.ts): ignored when sent back unchanged, refused when changed.
 */
import { invalidParameter } from '../errors.js';
import type { ParamReader } from '../params.js';
import type { Rec } from '../store/row.js';
import {
  AUDIENCE_EXPANSIONS,
  BID_STRATEGIES,
  DURATIONS_IN_DAYS,
  ENTITY_STATUSES_CREATE,
  ENTITY_STATUSES_UPDATE,
  GOALS,
  PAY_BY_VALUES,
  PUT_GOALS,
} from './line-item-rules.js';

/** What `readWritable` found: the record patch and the private (`ext`) patch. */
interface WritablePatch {
  rec: Rec;
  ext: Rec;
  /** pay_by was sent explicitly (only APP_INSTALLS line items may choose it). */
  payBySent: boolean;
}

const IAB_CATEGORY = /^IAB\d+(-\d+)?$/;
const DOMAIN = /^(?=.{1,255}$)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** Reads the parameters POST (`mode` create) or PUT (`mode` update) may set on a line item. */
export function readWritable(p: ParamReader, mode: 'create' | 'update'): WritablePatch {
  const rec: Rec = {};
  const ext: Rec = {};
  const set = (name: string, value: unknown): void => {
    if (value !== undefined) rec[name] = value;
  };
  const create = mode === 'create';

  set('name', p.string('name', { min: 1, max: 255, nullable: !create }));
  set('entity_status', p.oneOf('entity_status', create ? ENTITY_STATUSES_CREATE : ENTITY_STATUSES_UPDATE));
  set('start_time', p.time('start_time', { required: create }));
  set('end_time', p.time('end_time', { nullable: true }));
  set('bid_strategy', p.oneOf('bid_strategy', BID_STRATEGIES));
  set('bid_amount_local_micro', p.int('bid_amount_local_micro', { min: 1, nullable: true }));
  set('goal', p.oneOf('goal', create ? GOALS : PUT_GOALS));
  const payBy = p.oneOf('pay_by', PAY_BY_VALUES);
  set('pay_by', payBy);
  set('daily_budget_amount_local_micro', p.int('daily_budget_amount_local_micro', { min: 1, nullable: true }));
  set('total_budget_amount_local_micro', p.int('total_budget_amount_local_micro', { min: 1, nullable: true }));
  set('frequency_cap', p.int('frequency_cap', { min: 1, nullable: true, kind: 'Int' }));
  const days = p.int('duration_in_days', { nullable: true, kind: 'Int' });
  if (typeof days === 'number' && !DURATIONS_IN_DAYS.includes(days)) {
    p.fail(invalidParameter('duration_in_days', `Expected a value in ${DURATIONS_IN_DAYS.join(', ')}, got ${days} for duration_in_days`));
  } else set('duration_in_days', days);
  const domain = p.string('advertiser_domain', { max: 255, nullable: true });
  if (typeof domain === 'string' && !DOMAIN.test(domain)) {
    p.fail(invalidParameter('advertiser_domain', `Expected a domain name, got ${JSON.stringify(domain)} for advertiser_domain`));
  } else set('advertiser_domain', domain);
  set('categories', p.list('categories', { max: 200, pattern: IAB_CATEGORY, typeName: 'IAB category', allowEmpty: true }));
  set('android_app_store_identifier', p.string('android_app_store_identifier', { max: 255, nullable: true }));
  set('ios_app_store_identifier', p.string('ios_app_store_identifier', { max: 255, nullable: true }));
  const expansion = p.oneOf('audience_expansion', AUDIENCE_EXPANSIONS, { nullable: true });
  if (expansion !== undefined) ext['audience_expansion'] = expansion;
  if (create) {
    set('primary_web_event_tag', p.string('primary_web_event_tag', { max: 255, nullable: true }));
    set('standard_delivery', p.bool('standard_delivery'));
  }
  return { rec, ext, payBySent: payBy !== undefined && payBy !== null };
}
