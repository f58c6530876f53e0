/**
 * The Part B sections of a manifest: media files hashed, references by logical name inside values
 * (card components, post media, promoted `posts.NAME`, targeted audiences), memberships and
 * permissions as resources of their own, the one do-not-reach list, and each mistake reported at
 * its position.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHashOf } from '../../src/kinds/media-file.js';
import { formatAddress, parseAddress } from '../../src/manifest/address.js';
import { loadManifests } from '../../src/manifest/load.js';
import type { DesiredResource } from '../../src/manifest/types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-part-b-'));
  mkdirSync(join(dir, 'media'));
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'media/hero.png'), 'png bytes');
  writeFileSync(join(dir, 'data/list.csv'), 'email\na@example.com\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const FUNNEL = `version: 1
endpoint: local
account: { name: Acme }
media:
  hero: { file: media/hero.png, media_category: TWEET_IMAGE, name: Hero }
cards:
  site:
    name: Site
    components:
      - { type: MEDIA, media: hero }
      - { type: DETAILS, title: Shop, destination: { type: WEBSITE, url: "https://example.com" } }
posts:
  launch: { text: Go, card: site, media: [hero] }
custom_audiences:
  fans:
    name: Fans
    users: { file: data/list.csv, default_region: US, expires_at: 2027-06-01T00:00:00Z }
    permissions: { 2iqph: READ_ONLY }
do_not_reach:
  users: { file: data/list.csv }
funding_instruments:
  card: { type: CREDIT_CARD, currency: USD, start_time: 2026-01-01T00:00:00Z }
campaigns:
  c:
    name: C
    funding_instrument: card
    line_items:
      li:
        name: L
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_strategy: AUTO
        start_time: 2027-01-01T00:00:00Z
        targeting:
          - { targeting_type: CUSTOM_AUDIENCE, custom_audience: fans }
        promoted_posts: [posts.launch, { post: launch_two }, "1346184843436720128"]
`;

function load(text: string): { resources: Map<string, DesiredResource>; errors: string[] } {
  writeFileSync(join(dir, 'account.yaml'), text);
  const result = loadManifests(join(dir, 'account.yaml'));
  const resources = new Map((result.value?.accounts[0]?.resources ?? []).map((r) => [formatAddress(r.address), r]));
  return { resources, errors: result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.range?.start.line}:${d.range?.start.column} ${d.code}`) };
}

describe('Part B sections', () => {
  it('makes every resource of the funnel, with references by logical name at any depth', () => {
    const { resources, errors } = load(FUNNEL.replace('{ post: launch_two }, ', ''));
    expect(errors).toEqual([]);
    const media = resources.get('media.hero');
    expect(media?.attributes).toMatchObject({ file: 'media/hero.png', content_hash: contentHashOf(Buffer.from('png bytes')), media_category: 'TWEET_IMAGE', name: 'Hero' });
    const card = resources.get('cards.site');
    const components = card?.attributes['components'] as Array<Record<string, unknown>>;
    expect(formatAddress((components[0]?.['media_key'] as { $target: never }).$target)).toBe('media.hero');
    expect(Object.keys(card?.references ?? {})).toEqual(['components[0].media_key']);
    const post = resources.get('posts.launch');
    expect(post?.references['card_uri']).toBeDefined();
    expect((post?.attributes['media_keys'] as unknown[]).length).toBe(1);
    expect(resources.get('custom_audiences.fans.users')?.attributes).toMatchObject({ file: 'data/list.csv', default_region: 'US', expires_at: '2027-06-01T00:00:00Z' });
    expect(resources.get('custom_audiences.fans.permissions["2iqph"]')?.attributes).toEqual({ granted_account_id: '2iqph', permission_level: 'READ_ONLY' });
    expect(resources.has('do_not_reach')).toBe(true);
    expect(resources.has('do_not_reach.users')).toBe(true);
    const li = 'campaigns.c.line_items.li';
    expect(formatAddress(resources.get(`${li}.targeting["CUSTOM_AUDIENCE:custom_audiences.fans"]`)?.references['targeting_value'] ?? { kind: 'account', steps: [] })).toBe('custom_audiences.fans');
    expect(formatAddress(resources.get(`${li}.promoted_posts["posts.launch"]`)?.references['tweet_id'] ?? { kind: 'account', steps: [] })).toBe('posts.launch');
    expect(resources.get(`${li}.promoted_posts["1346184843436720128"]`)?.attributes['tweet_id']).toBe('1346184843436720128');
  });

  it.each([
    ['an unknown media name in a card', FUNNEL.replace('{ type: MEDIA, media: hero }', '{ type: MEDIA, media: hro }').replace('{ post: launch_two }, ', ''), ['10:31 unknown-reference']],
    ['an unknown post promoted by name', FUNNEL, ['37:48 unknown-reference']],
    ['a media file that does not exist', FUNNEL.replace('media/hero.png', 'media/none.png').replace('{ post: launch_two }, ', ''), ['5:17 file-not-found']],
    ['a media file of a type the service does not take', FUNNEL.replace('media/hero.png', 'media/hero.bmp').replace('{ post: launch_two }, ', ''), ['5:17 media-type']],
    ['a member file that does not exist', FUNNEL.replace('users: { file: data/list.csv, default', 'users: { file: data/nope.csv, default').replace('{ post: launch_two }, ', ''), ['17:20 file-not-found']],
    ['an audience named under a targeting type that is not an audience', FUNNEL.replace('CUSTOM_AUDIENCE, custom_audience', 'LOCATION, custom_audience').replace('{ post: launch_two }, ', ''), ['36:58 reference-type']],
    ['a card with components and slides', FUNNEL.replace('    name: Site\n', '    name: Site\n    slides: [[{ type: MEDIA, media: hero }]]\n').replace('{ post: launch_two }, ', ''), ['9:13 card-content']],
  ])('reports %s at its position', (_what, text, expected) => {
    expect(load(text).errors).toEqual(expected);
  });

  it.each([
    ['hero.png', undefined, 'TWEET_IMAGE'],
    ['hero.JPG', undefined, 'TWEET_IMAGE'],
    ['hero.jpeg', undefined, 'TWEET_IMAGE'],
    ['hero.webp', undefined, 'TWEET_IMAGE'],
    ['loop.gif', undefined, 'TWEET_GIF'],
    ['spot.mp4', undefined, 'TWEET_VIDEO'],
    ['spot.mov', undefined, 'TWEET_VIDEO'],
    ['spot.mp4', 'AMPLIFY_VIDEO', 'AMPLIFY_VIDEO'],
    ['hero.png', 'TWEET_IMAGE', 'TWEET_IMAGE'],
  ])('uploads %s without media_category %s as %s', (file, given, expected) => {
    writeFileSync(join(dir, 'media', file), 'bytes');
    const entry = `  hero: { file: media/${file}, ${given === undefined ? '' : `media_category: ${given}, `}name: Hero }`;
    const { resources, errors } = load(FUNNEL.replace('{ post: launch_two }, ', '').replace('  hero: { file: media/hero.png, media_category: TWEET_IMAGE, name: Hero }', entry));
    expect(errors).toEqual([]);
    expect(resources.get('media.hero')?.attributes['media_category']).toBe(expected);
  });

  it('asks for a file or an id when a media entry has neither', () => {
    const { errors } = load(FUNNEL.replace('{ post: launch_two }, ', '').replace('{ file: media/hero.png, media_category: TWEET_IMAGE, name: Hero }', '{ media_category: TWEET_IMAGE, name: Hero }'));
    expect(errors).toEqual(['5:3 missing-field']);
  });

  it('reads a flexible audience: leaves name audiences by logical name, with the service defaults filled in', () => {
    const text = FUNNEL.replace('{ post: launch_two }, ', '').replace(
      'do_not_reach:\n',
      'flexible_audiences:\n  engaged:\n    name: Engaged\n    segments:\n      boolean_operator: OR\n      child_segments:\n        - { custom_audience: fans, lookback_window: 7, negate: false }\n        - { custom_audience_id: "abc" }\ndo_not_reach:\n',
    );
    const { resources, errors } = load(text);
    expect(errors).toEqual([]);
    const engaged = resources.get('flexible_audiences.engaged');
    const segments = engaged?.attributes['segments'] as { child_segments: Array<Record<string, unknown>> };
    expect(formatAddress((segments.child_segments[0]?.['custom_audience_id'] as { $target: never }).$target)).toBe('custom_audiences.fans');
    expect(segments.child_segments[0]).toMatchObject({ lookback_window: 7, negate: false, frequency: 1, frequency_comparator: 'NUM_GTE' });
    expect(segments.child_segments[1]).toEqual({ custom_audience_id: 'abc', lookback_window: 30, frequency: 1, frequency_comparator: 'NUM_GTE', negate: true });
    expect(Object.keys(engaged?.references ?? {})).toEqual(['segments.child_segments[0].custom_audience_id']);
  });

  it('addresses a single collection by its name alone, and parses it back', () => {
    for (const text of ['do_not_reach', 'do_not_reach.users', 'custom_audiences.fans.users', 'custom_audiences.fans.permissions["2iqph"]', 'posts.launch', 'media.hero']) {
      const parsed = parseAddress(text);
      expect(parsed.diagnostics).toEqual([]);
      expect(formatAddress(parsed.value!)).toBe(text);
    }
  });
});
