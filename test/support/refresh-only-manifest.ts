/**
 * The manifest of the refresh-only scenarios (test/engine/apply-refresh-only.test.ts through the
 * engine, test/e2e/apply-refresh-only.test.ts for the prompt and the saved plan refused): one paused
 * campaign of two paused line items in the seeded account.
 */
import { seededAccountHead } from './e2e.js';

const lineItem = (name: string): string => `
        name: ${name}
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount: "1.50"
        start_time: 2026-12-01T00:00:00Z
        entity_status: PAUSED`;

/** The scenario's manifest at `endpoint`. */
export const refreshOnlyManifest = (endpoint: string): string => `${seededAccountHead(endpoint)}campaigns:
  launch:
    name: Launch
    funding_instrument: main
    daily_budget: "10.00"
    entity_status: PAUSED
    line_items:
      us:${lineItem('US')}
      eu:${lineItem('EU')}
`;
