/**
 * The manifest of the lifecycle scenario (test/engine/lifecycle.test.ts runs it through the engine,
 * test/e2e/lifecycle.test.ts keeps what only a process shows): an account of campaigns and line
 * items whose parts the scenario edits step by step (`Shape`), and the campaign it makes by hand.
 */
import { expect } from 'vitest';
import type { TestClient } from './client.js';

export const ACCOUNT = '18ce54d4x5t';
export const POSTS = ['1346184843436720128', '1346184843440914432', '1346184843445108736'] as const;

/** The parts of the manifest the lifecycle edits. */
export interface Shape {
  springDaily: string;
  autumnKey: string;
  autumnName: string;
  withCa: boolean;
  withHandmade: boolean;
}

export const INITIAL: Shape = { springDaily: '50.00', autumnKey: 'autumn', autumnName: 'E2E Autumn 2027', withCa: true, withHandmade: false };

export function manifest(endpoint: string, shape: Shape): string {
  const ca = `
      ca:
        name: E2E Canada
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_strategy: MAX
        bid_amount: "1.00"
        start_time: 2027-03-01T00:00:00Z
        targeting:
          - { targeting_type: LOCATION, targeting_value: 96683cc9126741d1 }
        promoted_posts: ["${POSTS[0]}"]`;
  const handmade = `
  handmade:
    name: E2E Handmade
    funding_instrument: main
    daily_budget: "10.00"
    entity_status: PAUSED`;
  return `version: 1
endpoint: ${endpoint}
account:
  id: ${ACCOUNT}
funding_instruments:
  main: { id: lygyi }
campaigns:
  spring:
    name: E2E Spring 2027
    funding_instrument: main
    daily_budget: "${shape.springDaily}"
    total_budget: "1500.00"
    entity_status: PAUSED
    line_items:
      us:
        name: E2E United States
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_strategy: MAX
        bid_amount: "1.50"
        start_time: 2027-03-01T00:00:00Z
        targeting:
          - { targeting_type: LOCATION, targeting_value: 96683cc9126741d1 }
          - { targeting_type: BROAD_KEYWORD, targeting_value: hiking boots }
        promoted_posts: ["${POSTS[0]}", "${POSTS[1]}"]${shape.withCa ? ca : ''}
  ${shape.autumnKey}:
    name: ${shape.autumnName}
    funding_instrument: main
    daily_budget: "20.00"
    entity_status: PAUSED
    line_items:
      eu:
        name: E2E Europe
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_strategy: AUTO
        start_time: 2027-09-01T00:00:00Z
        promoted_posts: ["${POSTS[2]}"]${shape.withHandmade ? handmade : ''}
`;
}

/** Makes the campaign `manifest` declares as `handmade` (with `withHandmade`) by hand, as a person would; returns its id. */
export async function handmadeCampaign(client: TestClient): Promise<string> {
  const made = await client.post(
    `/12/accounts/${ACCOUNT}/campaigns`,
    { name: 'E2E Handmade', funding_instrument_id: 'lygyi', daily_budget_amount_local_micro: 10_000_000, entity_status: 'PAUSED' },
    { as: 'form' },
  );
  expect(made.status, made.text).toBe(201);
  return String(made.body.data.id);
}
