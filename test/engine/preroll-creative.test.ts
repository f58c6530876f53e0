/**
 * A line item's media creative naming a video of the manifest (`media: teaser`): the video is
 * uploaded with AMPLIFY_VIDEO, the service makes its PREROLL account media asset, and the creative
 * is created on that asset; the next plan is clean, and a video file edited replaces the video and
 * moves the creative to the new asset. Through the engine in-process against the in-process
 * emulator at a manual clock, which the manifest names, so the creatives and assets read through
 * the API are the ones apply made. A media item that is no AMPLIFY_VIDEO upload is refused at
 * its position before anything is written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { listAll, transcript } from '../support/e2e.js';
import { createEngineWorkspace, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';
import { mp4 } from '../support/media-bytes.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
const workspaces: EngineWorkspace[] = [];
const clock = manualClock();

const manifest = (category: string): string => `version: 1
endpoint: ${emulator.info.base_url}
account:
  id: "${ACCOUNT}"
media:
  teaser: { file: teaser.mp4, media_category: ${category}, name: Teaser }
funding_instruments:
  card: { type: CREDIT_CARD, currency: USD, start_time: 2026-01-01T00:00:00Z }
campaigns:
  video:
    name: Video views
    funding_instrument: card
    daily_budget: "20.00"
    entity_status: PAUSED
    line_items:
      preroll:
        name: Pre-roll
        product_type: MEDIA
        objective: PREROLL_VIEWS
        placements: [ALL_ON_SERVICE]
        categories: ["IAB1"]
        advertiser_domain: example.com
        bid_strategy: AUTO
        entity_status: PAUSED
        start_time: 2027-01-01T00:00:00Z
        media_creatives:
          - { media: teaser }
`;

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
});
afterAll(async () => {
  await emulator.close();
  for (const ws of workspaces) ws.remove();
});

const creatives = async (): Promise<Array<Record<string, unknown>>> => listAll(client, `/12/accounts/${ACCOUNT}/media_creatives`);
const prerollOf = async (mediaKey: string): Promise<string | undefined> =>
  (await listAll(client, `/12/accounts/${ACCOUNT}/account_media`, { creative_types: 'PREROLL' })).find((m) => m['media_key'] === mediaKey)?.['id'] as string | undefined;

describe('a media creative naming a video of the manifest', () => {
  it('is created on the video’s PREROLL asset, and follows the video when it is uploaded anew', async () => {
    const ws = createEngineWorkspace(emulator.info, manifest('AMPLIFY_VIDEO'), clock);
    workspaces.push(ws);
    writeFileSync(join(ws.dir, 'teaser.mp4'), mp4(1280, 720, { durationMs: 6000 }));
    const apply = await ws.apply();
    expect(apply.code, transcript(apply)).toBe(0);
    const state = (): Record<string, { id: string }> => (JSON.parse(readFileSync(join(ws.dir, '.adsctl/state/18ce54d4x5t.json'), 'utf8')) as { resources: Record<string, { id: string }> }).resources;
    const video = state()['media.teaser']!.id;
    const creative = state()['campaigns.video.line_items.preroll.media_creatives["media.teaser"]']!.id;
    expect((await creatives()).find((c) => c['id'] === creative)?.['account_media_id']).toBe(await prerollOf(video));

    const plan = await ws.plan({ detailedExitcode: true });
    expect(plan.code, transcript(plan)).toBe(0);

    writeFileSync(join(ws.dir, 'teaser.mp4'), mp4(1280, 720, { durationMs: 8000 }));
    const again = await ws.apply();
    expect(again.code, transcript(again)).toBe(0);
    const newVideo = state()['media.teaser']!.id;
    expect(newVideo).not.toBe(video);
    const moved = state()['campaigns.video.line_items.preroll.media_creatives["media.teaser"]']!.id;
    expect((await creatives()).find((c) => c['id'] === moved)?.['account_media_id']).toBe(await prerollOf(newVideo));
    expect((await creatives()).some((c) => c['id'] === creative)).toBe(false);
  });

  it('is refused at its position when the media is no AMPLIFY_VIDEO upload', async () => {
    const ws = createEngineWorkspace(emulator.info, manifest('TWEET_VIDEO'), clock);
    workspaces.push(ws);
    writeFileSync(join(ws.dir, 'teaser.mp4'), mp4(1280, 720, { durationMs: 6000 }));
    const validate = await ws.validate();
    expect(validate.code, transcript(validate)).toBe(1);
    expect(validate.stderr + validate.stdout).toMatch(/account\.yaml:\d+:\d+: error media-category: media "teaser" has no PREROLL asset/);
  });
});
