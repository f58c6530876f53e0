/**
 * A line item's media creative naming a video of the manifest (`media: teaser`) whose media is no
 * AMPLIFY_VIDEO upload: `adsctl validate` refuses it at its position before anything is written.
 * The creative made on the video's PREROLL asset, and moved when the video is uploaded anew, is
 * test/engine/preroll-creative.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, transcript, type Workspace } from '../support/e2e.js';
import { mp4 } from '../support/media-bytes.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
const workspaces: Workspace[] = [];

const manifest = (category: string): string => `version: 1
endpoint: local
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
  ({ emulator } = await startTestEmulator());
});
afterAll(async () => {
  await emulator.close();
  for (const ws of workspaces) ws.remove();
});

describe('a media creative naming a video of the manifest', () => {
  it('is refused at its position when the media is no AMPLIFY_VIDEO upload', async () => {
    const ws = createWorkspace(emulator.info, manifest('TWEET_VIDEO'));
    workspaces.push(ws);
    writeFileSync(join(ws.dir, 'teaser.mp4'), mp4(1280, 720, { durationMs: 6000 }));
    const validate = await ws.run(['validate']);
    expect(validate.code, transcript(validate)).toBe(1);
    expect(validate.stderr + validate.stdout).toMatch(/account\.yaml:\d+:\d+: error media-category: media "teaser" has no PREROLL asset/);
  });
});
