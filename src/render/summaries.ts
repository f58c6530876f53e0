/**
 * The one-line plan summaries users grep for, in Terraform's exact words (`Plan: 1 to add, 0 to
 * change, 0 to destroy.`), plus adsctl's own line with the request count and the change in
 * spend. What apply and destroy say when they end is in apply-outcome.ts.
 */
import type { DocumentRequests, DocumentSpend, DocumentSummary } from './document-types.js';
import { formatSignedMoney } from './values.js';

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
 * `+25.00 USD/day, +500.00 USD total` per currency, joined by `; `; `no change` when every
 * currency's deltas are zero or there are none.
 */
export function spendPhrase(spend: readonly DocumentSpend[]): string {
  const moved = spend.filter((s) => s.daily_micros !== 0 || s.total_micros !== 0);
  if (moved.length === 0) return 'no change';
  return moved.map((s) => `${formatSignedMoney(s.daily_micros, s.currency)}/day, ${formatSignedMoney(s.total_micros, s.currency)} total`).join('; ');
}

/** `Requests: 3 reads made, 4 writes planned (2 batches). Spend: +25.00 USD/day, +500.00 USD total.` */
export function requestsAndSpendLine(requests: DocumentRequests, spend: readonly DocumentSpend[]): string {
  return `Requests: ${requestsPhrase(requests)}. Spend: ${spendPhrase(spend)}.`;
}
