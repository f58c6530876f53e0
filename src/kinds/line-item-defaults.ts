/**
 * The values the service gives a line item's fields when a create leaves them out, where they
 * depend on the objective (Part A, Line items; docs/service-behaviour.md, "Line items"): the
 * objective's first goal, and the way it bills. adsctl manages these fields only where a manifest
 * writes them; `adsctl generate` leaves a live value equal to them out of the manifest.
 */
import { GOALS_BY_OBJECTIVE } from './line-item-rules.js';

/** How a line item of each objective bills when the create names no `pay_by`. */
const PAY_BY_BY_OBJECTIVE: Readonly<Record<string, string>> = {
  ENGAGEMENTS: 'ENGAGEMENT',
  APP_INSTALLS: 'APP_CLICK',
  APP_ENGAGEMENTS: 'APP_CLICK',
  REACH: 'IMPRESSION',
  FOLLOWERS: 'FOLLOW',
  VIDEO_VIEWS: 'VIEW',
  PREROLL_VIEWS: 'VIEW',
  WEBSITE_CLICKS: 'LINK_CLICK',
};

/** The goal the service gives a line item of `record`'s objective created without one. */
export function defaultGoal(record: Readonly<Record<string, unknown>>): unknown {
  return GOALS_BY_OBJECTIVE[String(record['objective'])]?.[0];
}

/** The `pay_by` the service gives a line item of `record`'s objective created without one. */
export function defaultPayBy(record: Readonly<Record<string, unknown>>): unknown {
  return PAY_BY_BY_OBJECTIVE[String(record['objective'])];
}
