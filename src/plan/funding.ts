/**
 * What the plan says of the funding instruments that pay for what serves after it (docs/manifest.md,
 * "Spend"): a warning when the campaigns that serve on one commit more than its
 * `credit_remaining_local_micro`, and when one of them serves past its `end_time` (a flight that
 * ends later, or has no end). The `max_committed_spend` guardrail makes the account's total an
 * error (src/guardrails/check.ts).
 */
import { warningAt, type Diagnostic } from '../diag/diagnostic.js';
import type { LiveAccount } from '../live/types.js';
import { formatMicros } from '../manifest/money.js';
import { OPEN_ENDED_DAYS, type accountServing } from './serving-spend.js';

const utc = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The warnings of the funding instruments that pay for what serves after the plan: `commitments` by funding instrument id (`accountServing`). */
export function checkFunding(commitments: ReturnType<typeof accountServing>['commitments'], live: LiveAccount): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [id, campaigns] of commitments) {
    const record = live.resources.get('funding_instrument')?.get(id)?.record;
    if (record === undefined) continue;
    const currency = typeof record['currency'] === 'string' ? record['currency'] : (campaigns[0]?.change.currency ?? 'USD');
    const credit = record['credit_remaining_local_micro'];
    const committed = campaigns.reduce((n, c) => n + c.micros, 0);
    if (typeof credit === 'number' && committed > credit) {
      const open = campaigns.some((c) => c.openEnded) ? ` (a flight without an end counted ${OPEN_ENDED_DAYS} days)` : '';
      out.push(
        warningAt(
          'committed-over-credit',
          `the campaigns that serve on funding instrument ${id} commit ${formatMicros(committed, currency)} ${currency} over their flights${open}, more than the ${formatMicros(credit, currency)} ${currency} of credit it has left: ${campaigns.map((c) => c.address).join(', ')}`,
          campaigns[0]?.change.source,
        ),
      );
    }
    const end = typeof record['end_time'] === 'string' ? Date.parse(record['end_time']) : undefined;
    if (end === undefined || !Number.isFinite(end)) continue;
    for (const c of campaigns) {
      if (c.endMs !== undefined && c.endMs <= end) continue;
      const until = c.endMs === undefined ? 'has a line item without an end' : `serves until ${utc(c.endMs)}`;
      out.push(warningAt('serves-past-funding', `${c.address} ${until}, after funding instrument ${id} ends at ${utc(end)}: it stops serving then`, c.change.source));
    }
  }
  return out;
}
