/**
 * The manifest of the apply-progress scenarios (test/engine/apply-progress-truth.test.ts through
 * the engine, test/e2e/apply-progress-truth.test.ts for the applies a signal interrupts).
 */
import { seededAccountHead } from './e2e.js';

/** A paused campaign `key` named `name` at `endpoint` whose line items each have one keyword and the promoted posts given. */
export function progressManifest(endpoint: string, key: string, name: string, lineItems: ReadonlyArray<{ key: string; keyword: string; posts: readonly string[] }>): string {
  const items = lineItems.map(
    (l) => `      ${l.key}:
        name: ${name} ${l.key}
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount: "1.50"
        start_time: 2026-12-01T00:00:00Z
        entity_status: PAUSED
        targeting:
          - { targeting_type: BROAD_KEYWORD, targeting_value: ${l.keyword} }
${l.posts.length === 0 ? '' : `        promoted_posts: [${l.posts.map((p) => `"${p}"`).join(', ')}]\n`}`,
  );
  return `${seededAccountHead(endpoint)}campaigns:
  ${key}:
    name: ${name}
    funding_instrument: main
    daily_budget: "5.00"
    entity_status: PAUSED
    line_items:
${items.join('')}`;
}
