/**
 * A saved plan is refused when an object it touches moved, even when the change by hand lands in
 * the same second as the write before it: `updated_at` has whole seconds, so the fingerprint must
 * see the object's content too. Through the engine in-process against the in-process emulator, at
 * a manual clock that is never moved: the emulator's clock is stopped to make that second certain.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { transcript } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';
import { png } from '../support/media-bytes.js';

const ACCOUNT = '18ce54d4x5t';
/** Never moved: the emulator's clock and the runs' stopped at the test instant. */
const STOPPED = manualClock();

let emulator: RunningEmulator;
let client: TestClient;
let ws: EngineWorkspace;

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


beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock: STOPPED }));
  ws = createEngineWorkspace(emulator.info, manifest(emulator.info.base_url, '10.00'), STOPPED);
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});

it('refuses a saved plan after a change by hand in the same second as the last write', async () => {
  await expectCode(ws.apply(), 0);
  const id = ws.bindings(ACCOUNT).get('campaigns.one_second')!;
  ws.write(manifest(emulator.info.base_url, '20.00'));
  await expectCode(ws.plan({ out: 'saved.plan', detailedExitcode: true }), 2);

  const byHand = await client.put(`/12/accounts/${ACCOUNT}/campaigns/${id}`, { name: 'E2E Renamed by hand' }, { as: 'form' });
  expect(byHand.status, byHand.text).toBe(200);
  const before = await client.get(`/12/accounts/${ACCOUNT}/campaigns/${id}`);
  expect(before.body.data.updated_at).toBe(before.body.data.created_at);

  const stale = await expectCode(ws.applySaved('saved.plan'), 1);
  expect(stale.stderr).toContain('the saved plan is stale');
  expect(stale.stderr).toContain('campaigns.one_second');
  const after = await client.get(`/12/accounts/${ACCOUNT}/campaigns/${id}`);
  expect(after.body.data.daily_budget_amount_local_micro).toBe(10_000_000);

  const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
  expect(plan.stdout).toMatch(/\(changed outside adsctl(?: by user \d+ at [\d:TZ-]+)?\)/);
  await expectCode(ws.apply(), 0);
  expect((await client.get(`/12/accounts/${ACCOUNT}/campaigns/${id}`)).body.data).toMatchObject({ name: 'E2E One second', daily_budget_amount_local_micro: 20_000_000 });
  await expectCode(ws.plan({ detailedExitcode: true }), 0);
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
  const cardWs = createEngineWorkspace(emulator.info, cards('E2E Site'), STOPPED);
  writeFileSync(join(cardWs.dir, 'hero.png'), png(1200, 628));
  try {
    const first = await cardWs.apply();
    expect(first.code, transcript(first)).toBe(0);
    const id = cardWs.bindings(ACCOUNT).get('cards.site')!;
    cardWs.write(cards('E2E Site, second'));
    const plan = await cardWs.plan({ out: 'saved.plan' });
    expect(plan.code, transcript(plan)).toBe(0);
    const byHand = await client.put(`/12/accounts/${ACCOUNT}/cards/${id}`, undefined, { json: { name: 'E2E Renamed by hand' } });
    expect(byHand.status, byHand.text).toBe(200);
    const stale = await cardWs.applySaved('saved.plan');
    expect(stale.code, transcript(stale)).toBe(1);
    expect(stale.stderr).toContain('the saved plan is stale');
    expect(stale.stderr).toContain('cards.site');
    expect((await client.get(`/12/accounts/${ACCOUNT}/cards/${id}`)).body.data.name).toBe('E2E Renamed by hand');
  } finally {
    cardWs.remove();
  }
});
