/**
 * Objects made by hand through the API, as a person makes them in the web UI: what the tests of
 * drift, unmanaged objects and adoption start from.
 */
import { expect } from 'vitest';
import type { Params, TestClient } from './client.js';

/** Posts `body` to `/12/accounts/ACCOUNT/PATH` as `client`; expects it made; returns its id. */
export async function madeByHand(client: TestClient, account: string, path: string, body: Params): Promise<string> {
  const reply = await client.post(`/12/accounts/${account}/${path}`, body);
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
  return String((reply.body as { data: { id: string } }).data.id);
}

/** The parameters of a promoted-posts line item named `name` in `campaign` (PAUSED unless `more` says otherwise). */
export const lineItemByHand = (campaign: string, name: string, more: Params = {}): Params => ({
  campaign_id: campaign,
  name,
  product_type: 'PROMOTED_TWEETS',
  objective: 'ENGAGEMENTS',
  placements: 'ALL_ON_SERVICE',
  bid_amount_local_micro: 2_000_000,
  start_time: '2026-12-01T00:00:00Z',
  entity_status: 'PAUSED',
  ...more,
});
