/**
 * A saved plan is refused when an object it touches moved, even when the change by hand lands in
 * the same second as the write before it: `updated_at` has whole seconds, so the fingerprint must
 * see the object's content too. The emulator's clock is stopped to make that second certain.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, transcript, type Workspace } from '../support/e2e.js';
import type { CliRun } from '../support/run-cli.js';
import { png } from '../support/media-bytes.js';
import { testClock } from '../support/test-clock.js';

const ACCOUNT = '18ce54d4x5t';
const STOPPED = testClock.now();

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

const manifest = (endpoint: string, daily: string): string => `version: 1
endpoint: ${endpoint}
account:
  id: ${ACCOUNT}
funding_instruments:
  main: { id: lygyi }
campaigns:
  one_second:
    name: E2E One second
    funding_instrument: main
    daily_budget: "${daily}"
    entity_status: PAUSED
`;

async function adsctl(args: string[], code: number): Promise<CliRun> {
  const run = await ws.run(args);
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock: { now: () => STOPPED } }));
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url, '10.00'));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});

it('refuses a saved plan after a change by hand in the same second as the last write', async () => {
  await adsctl(['apply', '--auto-approve'], 0);
  const id = parseStateList((await adsctl(['state', 'list'], 0)).stdout).get('campaigns.one_second')!;
  ws.write(manifest(emulator.info.base_url, '20.00'));
  await adsctl(['plan', '--out', 'saved.plan', '--detailed-exitcode'], 2);

  const byHand = await client.put(`/12/accounts/${ACCOUNT}/campaigns/${id}`, { name: 'E2E Renamed by hand' }, { as: 'form' });
  expect(byHand.status, byHand.text).toBe(200);
  const before = await client.get(`/12/accounts/${ACCOUNT}/campaigns/${id}`);
  expect(before.body.data.updated_at).toBe(before.body.data.created_at);

  const stale = await adsctl(['apply', 'saved.plan'], 1);
  expect(stale.stderr).toContain('the saved plan is stale');
  expect(stale.stderr).toContain('campaigns.one_second');
  const after = await client.get(`/12/accounts/${ACCOUNT}/campaigns/${id}`);
  expect(after.body.data.daily_budget_amount_local_micro).toBe(10_000_000);

  const plan = await adsctl(['plan', '--detailed-exitcode'], 2);
  expect(plan.stdout).toMatch(/\(changed outside adsctl(?: by user \d+ at [\d:TZ-]+)?\)/);
  await adsctl(['apply', '--auto-approve'], 0);
  expect((await client.get(`/12/accounts/${ACCOUNT}/campaigns/${id}`)).body.data).toMatchObject({ name: 'E2E One second', daily_budget_amount_local_micro: 20_000_000 });
  await adsctl(['plan', '--detailed-exitcode'], 0);
});

it('refuses a saved plan after a card it changes was renamed by hand', async () => {
  const cards = (name: string): string => `version: 1
endpoint: ${emulator.info.base_url}
account:
  id: ${ACCOUNT}
media:
  hero: { file: hero.png, media_category: TWEET_IMAGE }
cards:
  site:
    name: ${name}
    components:
      - { type: MEDIA, media: hero }
      - { type: DETAILS, title: Shop, destination: { type: WEBSITE, url: "https://example.com" } }
`;
  const cardWs = createWorkspace(emulator.info, cards('E2E Site'));
  writeFileSync(join(cardWs.dir, 'hero.png'), png(1200, 628));
  try {
    const first = await cardWs.run(['apply', '--auto-approve']);
    expect(first.code, transcript(first)).toBe(0);
    const id = parseStateList((await cardWs.run(['state', 'list'])).stdout).get('cards.site')!;
    cardWs.write(cards('E2E Site, second'));
    const plan = await cardWs.run(['plan', '--out', 'saved.plan']);
    expect(plan.code, transcript(plan)).toBe(0);
    const byHand = await client.put(`/12/accounts/${ACCOUNT}/cards/${id}`, undefined, { json: { name: 'E2E Renamed by hand' } });
    expect(byHand.status, byHand.text).toBe(200);
    const stale = await cardWs.run(['apply', 'saved.plan']);
    expect(stale.code, transcript(stale)).toBe(1);
    expect(stale.stderr).toContain('the saved plan is stale');
    expect(stale.stderr).toContain('cards.site');
    expect((await client.get(`/12/accounts/${ACCOUNT}/cards/${id}`)).body.data.name).toBe('E2E Renamed by hand');
  } finally {
    cardWs.remove();
  }
});
