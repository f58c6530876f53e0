/**
 * The fields the service adds to records adsctl manages, and adsctl does not (docs/service-behaviour.md,
 * "Record shapes the specification leaves open"), through the built CLI: an image and a video in the
 * media library (`poster_media_key`), cards whose MEDIA, SWIPEABLE_MEDIA and slide components come
 * back with `media_metadata`, and posts that come back with `tweet_id`, the post fields and
 * `created_at` in the post format. After apply, the emulator is seen answering with those fields,
 * and `plan --detailed-exitcode` reports no changes (exit 0): no plan shows a diff because of them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, expectRuns, listAll, parseStateList, seededAccountHead, stepsInOrder, type Workspace } from '../support/e2e.js';
import { mp4 } from '../support/media-bytes.js';
import { validPng } from '../support/png-image.js';

const ACCOUNT = '18ce54d4x5t';
const A = `/12/accounts/${ACCOUNT}`;
const POST_TIME = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/;

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

const manifest = (endpoint: string): string => `${seededAccountHead(endpoint)}media:
  hero: { file: media/hero.png, media_category: TWEET_IMAGE, name: Hero }
  detail: { file: media/detail.png, media_category: TWEET_IMAGE, name: Detail }
  clip: { file: media/clip.mp4, media_category: TWEET_VIDEO, name: Clip, title: Trail clip }
cards:
  site:
    name: Site
    components:
      - { type: MEDIA, media: hero }
      - { type: DETAILS, title: Shop now, destination: { type: WEBSITE, url: "https://example.com/shop" } }
  carousel:
    name: Carousel
    components:
      - { type: SWIPEABLE_MEDIA, media: [hero, clip] }
      - { type: DETAILS, title: Browse, destination: { type: WEBSITE, url: "https://example.com/browse" } }
  slides:
    name: Slides
    slides:
      - [{ type: MEDIA, media: hero }, { type: DETAILS, title: Tents, destination: { type: WEBSITE, url: "https://example.com/tents" } }]
      - [{ type: MEDIA, media: detail }, { type: DETAILS, title: Packs, destination: { type: WEBSITE, url: "https://example.com/packs" } }]
posts:
  launch: { text: "#Summer starts now with @acme_trails: https://example.com/shop", card: site, name: Launch }
  teaser: { text: Watch the trail, media: [clip], name: Teaser }
`;

const adsctl = expectRuns(() => ws);

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url));
  mkdirSync(join(ws.dir, 'media'));
  writeFileSync(join(ws.dir, 'media', 'hero.png'), validPng(1200, 628, 3));
  writeFileSync(join(ws.dir, 'media', 'detail.png'), validPng(800, 800, 5));
  writeFileSync(join(ws.dir, 'media', 'clip.mp4'), mp4(1280, 720, { durationMs: 12_000 }));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('fields the service adds to managed records cause no diff', () => {
  let ids: Map<string, string>;

  it('applies media, cards with media components and posts', async () => {
    const apply = await adsctl(['apply', '--auto-approve'], 0);
    expect(apply.stdout).toContain('Apply complete! Resources: 8 added, 0 changed, 0 destroyed.');
    ids = parseStateList((await adsctl(['state', 'list'], 0)).stdout);
  });

  it('the emulator answers with the added fields', async () => {
    const library = await listAll(client, `${A}/media_library`, { count: 50 });
    const clip = library.find((i) => i['media_key'] === ids.get('media.clip'))!;
    expect(clip['poster_media_key']).toBe(String(ids.get('media.clip')).replace(/^13_/, '3_'));
    expect(library.find((i) => i['media_key'] === ids.get('media.hero'))).toHaveProperty('poster_media_key', null);

    const cards = await listAll(client, `${A}/cards`, { count: 200 });
    const card = (address: string): Record<string, any> => cards.find((c) => c['id'] === ids.get(address))!;
    expect(card('cards.site')['components'][0]['media_metadata'][ids.get('media.hero')!]).toMatchObject({ type: 'IMAGE', width: 1200, height: 628 });
    expect(card('cards.carousel')['components'][0]['media_metadata'][ids.get('media.clip')!]).toMatchObject({ type: 'VIDEO', video_duration: 12_000, video_aspect_ratio: '16:9' });
    expect(card('cards.slides')['slides'][1][0]['media_metadata'][ids.get('media.detail')!]).toMatchObject({ type: 'IMAGE', width: 800, height: 800 });

    const posts = await listAll(client, `${A}/tweets`, { tweet_type: 'PUBLISHED', tweet_ids: `${ids.get('posts.launch')},${ids.get('posts.teaser')}`, trim_user: 'true', timeline_type: 'ALL', include_mentions_and_replies: 'true' });
    expect(posts).toHaveLength(2);
    for (const post of posts) {
      expect(post['tweet_id']).toBe(post['id']);
      expect(post['created_at']).toMatch(POST_TIME);
      expect(post).toHaveProperty('entities');
      expect(post).toHaveProperty('source');
    }
    const launch = posts.find((p) => p['id'] === ids.get('posts.launch'))!;
    expect(launch['entities']['hashtags']).toEqual([{ text: 'Summer', indices: [0, 7] }]);
    expect(launch['entities']['user_mentions'][0]).toMatchObject({ screen_name: 'acme_trails' });
  });

  it('plan --detailed-exitcode reports no changes', async () => {
    const plan = await adsctl(['plan', '--detailed-exitcode'], 0);
    expect(plan.stdout).toContain('No changes.');
  });
});
