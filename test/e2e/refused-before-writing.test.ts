/**
 * What the service will refuse and the plan can know is refused before anything is written
 * (issue: a line item without `start_time` passed validate and plan; apply then created the
 * funding instrument and campaign and failed on the service's MISSING_PARAMETER). Plan and apply
 * both stop at the manifest position, and the account is left as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, listAll, transcript, type Workspace } from '../support/e2e.js';
import type { CliRun } from '../support/run-cli.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
const workspaces: Workspace[] = [];

const manifest = (endpoint: string, lineItem: string): string => `version: 1
endpoint: ${endpoint}
account:
  id: "${ACCOUNT}"
funding_instruments:
  card: { type: CREDIT_CARD, currency: USD, start_time: 2026-01-01T00:00:00Z }
campaigns:
  refused:
    name: Refused before writing
    funding_instrument: card
    daily_budget: "5.00"
    entity_status: PAUSED
    line_items:
      us:
        name: US
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        entity_status: PAUSED
${lineItem}`;

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
});
afterAll(async () => {
  await emulator.close();
  for (const ws of workspaces) ws.remove();
});

const counts = async (): Promise<[number, number, number]> => [
  (await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`, { with_draft: true })).length,
  (await listAll(client, `/12/accounts/${ACCOUNT}/funding_instruments`)).length,
  (await listAll(client, `/12/accounts/${ACCOUNT}/tweets`, { tweet_type: 'PUBLISHED', timeline_type: 'ALL' })).length,
];

describe('a plan the service would refuse', () => {
  it.each([
    ['a line item without start_time', '        bid_amount: "1.50"\n', /account\.yaml:\d+:\d+: error missing-required: campaigns\.refused\.line_items\.us: the service creates no line item without start_time/],
    ['a MAX bid strategy without a bid', '        start_time: 2026-12-01T00:00:00Z\n        bid_strategy: MAX\n', /account\.yaml:\d+:\d+: error missing-bid: campaigns\.refused\.line_items\.us: bid_strategy MAX needs a bid/],
    ['a frequency cap without its duration', '        start_time: 2026-12-01T00:00:00Z\n        frequency_cap: 3\n', /error frequency-cap: .*frequency_cap and duration_in_days go together/],
    ['a post written as a user who is not a promotable user of the account', '        start_time: 2026-12-01T00:00:00Z\nposts:\n  launch: { text: Hello, as_user_id: "42" }\n', /account\.yaml:\d+:\d+: error unknown-author: as_user_id 42 is not a promotable user of account 18ce54d4x5t/],
    ['a promoted post that does not exist', '        start_time: 2026-12-01T00:00:00Z\n        promoted_posts: ["1999999999999999999"]\n', /account\.yaml:\d+:\d+: error unknown-post: post 1999999999999999999 does not exist/],
  ])('%s: plan and apply stop at the position, nothing is written', async (_name, lineItem, message) => {
    const ws = createWorkspace(emulator.info, manifest(emulator.info.base_url, lineItem));
    workspaces.push(ws);
    const before = await counts();
    const plan = await ws.run(['plan']);
    expect(plan.code, transcript(plan)).toBe(1);
    expect(plan.stdout + plan.stderr).toMatch(message);
    const apply: CliRun = await ws.run(['apply', '--auto-approve']);
    expect(apply.code, transcript(apply)).toBe(1);
    expect(apply.stdout + apply.stderr).toMatch(message);
    expect(await counts()).toEqual(before);
  });
});
