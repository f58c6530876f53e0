/**
 * The one-line plan summaries users grep for, in Terraform's exact words (`Plan: 1 to add, 0 to
 * change, 0 to destroy.`), plus adsctl's own line with the request count and the change in
 * spend. What apply and destroy say when they end is in apply-outcome.ts.
 */
import type { DocumentRequests, DocumentSpend, DocumentSummary } from './document-types.js';
import { formatMicros } from '../manifest/money.js';
import { OPEN_ENDED_DAYS } from '../plan/serving-spend.js';
import { formatMoney, formatSignedMoney } from './values.js';

function count(n: number, singular: string, plural: string): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** `Plan: N to import, N to move, N to add, N to change, N to destroy.`, zero imports and moves left out. */
export function planCountsLine(summary: DocumentSummary): string {
  const imports = summary.import === undefined || summary.import === 0 ? '' : `${summary.import} to import, `;
  const moves = summary.move === undefined || summary.move === 0 ? '' : `${summary.move} to move, `;
  return `Plan: ${imports}${moves}${summary.add} to add, ${summary.change} to change, ${summary.destroy} to destroy.`;
}

/**
 * `3 reads made, 4 writes planned (2 batches)`, without a full stop; the batches (writes to a
 * batch endpoint) only when there are any.
 */
export function requestsPhrase(requests: DocumentRequests): string {
  const batches = requests.batches === 0 ? '' : ` (${count(requests.batches, 'batch', 'batches')})`;
  return `${count(requests.reads, 'read', 'reads')} made, ${count(requests.writes, 'write', 'writes')} planned${batches}`;
}

/**
 * One currency's spend. With serving spend (a plan's): the change of what serves per day, with
 * what served before and serves after (`+100.00 USD/day serving (from 40.00 to 140.00)`), or `serving
 * unchanged at 40.00 USD/day`; the budgets that exist and do not serve (`50.00 USD/day dormant`,
 * `nothing serving, 50.00 USD/day dormant`); what serves commits over its flights (`1500.00 USD
 * committed`);
 * the change of total budgets. Without it (the drift of a refresh-only plan): the change of the
 * budgets, `+25.00 USD/day, +500.00 USD total`. Undefined when nothing is worth saying.
 */
function currencySpend(s: DocumentSpend): string | undefined {
  const parts: string[] = [];
  const before = s.serving_daily_before_micros;
  const after = s.serving_daily_after_micros;
  if (before === undefined || after === undefined) {
    if (s.daily_micros === 0 && s.total_micros === 0) return undefined;
    return `${formatSignedMoney(s.daily_micros, s.currency)}/day, ${formatSignedMoney(s.total_micros, s.currency)} total`;
  }
  if (after !== before) parts.push(`${formatSignedMoney(after - before, s.currency)}/day serving (from ${formatMicros(before, s.currency)} to ${formatMicros(after, s.currency)})`);
  else if (after !== 0) parts.push(`serving unchanged at ${formatMoney(after, s.currency)}/day`);
  const dormant = s.dormant_daily_after_micros ?? 0;
  if (dormant !== 0) parts.push(`${after === 0 && before === 0 ? 'nothing serving, ' : ''}${formatMoney(dormant, s.currency)}/day dormant`);
  const committed = s.committed_total_after_micros ?? 0;
  if (committed !== 0) parts.push(`${formatMoney(committed, s.currency)} committed${s.committed_open_ended === true ? ` (a flight without an end counted ${OPEN_ENDED_DAYS} days)` : ''}`);
  if (s.total_micros !== 0) parts.push(`${formatSignedMoney(s.total_micros, s.currency)} total budgets`);
  return parts.length === 0 ? undefined : parts.join(', ');
}

/** The spend of each currency (see `currencySpend`), joined by `; `; `no change` when there is nothing to say. */
export function spendPhrase(spend: readonly DocumentSpend[]): string {
  const said = spend.map(currencySpend).filter((p): p is string => p !== undefined);
  return said.length === 0 ? 'no change' : said.join('; ');
}

/** `Requests: 3 reads made, 4 writes planned (2 batches). Spend: +25.00 USD/day, +500.00 USD total.` */
export function requestsAndSpendLine(requests: DocumentRequests, spend: readonly DocumentSpend[]): string {
  return `Requests: ${requestsPhrase(requests)}. Spend: ${spendPhrase(spend)}.`;
}
