/**
 * Shared HTTP fixtures: create campaigns and line items in an emulator account through the real API.
 * Both helpers throw when the emulator answers anything but 201, so a test fails at the fixture.
 */
import type { Params, TestClient } from './client.js';

/** The seeded USD funding instrument of the seeded account. */
export const SEED_FUNDING_INSTRUMENT_ID = 'lygyi';

let serial = 0;
const nextName = (prefix: string): string => `${prefix} ${++serial}`;

/**
 * Creates a campaign (POST accounts/:account/campaigns) and returns its wire record. Defaults: the
 * seeded funding instrument, a unique name, daily budget 100 USD (100_000_000 micros). `overrides`
 * replace or add parameters; an override set to `null` leaves that parameter out.
 */
export async function createCampaign(client: TestClient, account: string, overrides: Record<string, Params[string] | null> = {}): Promise<any> {
  const params = withOverrides(
    {
      funding_instrument_id: SEED_FUNDING_INSTRUMENT_ID,
      name: nextName('campaign'),
      daily_budget_amount_local_micro: 100_000_000,
    },
    overrides,
  );
  const reply = await client.post(`/12/accounts/${account}/campaigns`, params, { as: 'form' });
  if (reply.status !== 201) throw new Error(`createCampaign failed (${reply.status}): ${reply.text}`);
  return reply.body.data;
}

/**
 * Creates a line item (POST accounts/:account/line_items) in `campaignId` and returns its wire record.
 * Defaults: PROMOTED_TWEETS, objective ENGAGEMENTS, placements ALL_ON_SERVICE, bid_strategy AUTO,
 * start_time 2030-01-01T00:00:00Z, a unique name. `overrides` replace or add parameters; an override set
 * to `null` leaves that parameter out.
 */
export async function createLineItem(
  client: TestClient,
  account: string,
  campaignId: string,
  overrides: Record<string, Params[string] | null> = {},
): Promise<any> {
  const params = withOverrides(
    {
      campaign_id: campaignId,
      name: nextName('line item'),
      product_type: 'PROMOTED_TWEETS',
      objective: 'ENGAGEMENTS',
      placements: 'ALL_ON_SERVICE',
      bid_strategy: 'AUTO',
      start_time: '2030-01-01T00:00:00Z',
    },
    overrides,
  );
  const reply = await client.post(`/12/accounts/${account}/line_items`, params, { as: 'form' });
  if (reply.status !== 201) throw new Error(`createLineItem failed (${reply.status}): ${reply.text}`);
  return reply.body.data;
}

function withOverrides(base: Params, overrides: Record<string, Params[string] | null>): Params {
  const out: Params = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}
