import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateManifests, type GenerateInput } from '../../src/generate/generate.js';
import type { ResourceKind } from '../../src/kinds/kind.js';
import type { LiveAccount } from '../../src/live/types.js';
import { loadManifestSources } from '../../src/manifest/load.js';

function liveAccount(records: Partial<Record<ResourceKind, Array<Record<string, unknown>>>>): LiveAccount {
  const resources = new Map<ResourceKind, Map<string, { kind: ResourceKind; id: string; record: Record<string, unknown>; fingerprint: string }>>();
  for (const [kind, list] of Object.entries(records) as Array<[ResourceKind, Array<Record<string, unknown>>]>) {
    resources.set(kind, new Map(list.map((r) => [String(r['id'] ?? r['media_key']), { kind, id: String(r['id'] ?? r['media_key']), record: r, fingerprint: '' }])));
  }
  return { account: 'acc1', accountId: 'acc1', currencies: {}, resources, missing: new Set() };
}

const input = (live: LiveAccount, unread: ResourceKind[] = []): GenerateInput => ({ live, unread, endpoint: 'sandbox', schemaPath: '../schemas/manifest.schema.json', readAt: new Date('2026-11-26T14:00:00.123Z') });

const LIVE = liveAccount({
  account: [{ id: 'acc1', name: 'Acme: Outdoor #1' }],
  account_feature: [{ id: 'CITY_TARGETING', feature_key: 'CITY_TARGETING' }, { id: 'AGE_TARGETING', feature_key: 'AGE_TARGETING' }],
  do_not_reach_list: [{ id: 'dnr1', description: 'Opted out' }],
  funding_instrument: [{ id: 'fi1', description: 'Visa ending in 1234', type: 'CREDIT_CARD', currency: 'USD' }],
  custom_audience: [
    { id: 'aud1', name: 'Newsletter', audience_type: 'WEB', is_owner: true },
    { id: 'aud2', name: 'Engaged', audience_type: 'FLEXIBLE', is_owner: true },
  ],
  audience_permission: [{ id: 'aud1:p1', custom_audience_id: 'aud1', granted_account_id: 'other1', permission_level: 'READ_ONLY' }],
  media: [{ media_key: '3_99', name: 'Hero', file_name: 'hero.png' }],
  card: [{ id: 'card1', name: 'Summer site', components: [{ type: 'MEDIA', media_key: '3_99' }, { type: 'DETAILS', title: 'Shop: now', destination: { type: 'WEBSITE', url: 'https://example.com' } }] }],
  conversation_card: [{ id: 'cc1', format: 'image', name: 'Tent poll', media_key: '3_99', first_cta: '#Tents', first_cta_tweet: 'I want a tent', second_cta: null, title: 'Pick one', thank_you_text: 'Thanks!', thank_you_url: null, card_uri: 'card://cc1', card_type: 'IMAGE_CONVERSATION' }],
  post: [
    { id: '1500000000000000001', name: 'Launch', text: 'Summer sale starts now', card_uri: 'card://card1', media_keys: [], nullcast: true, conversation_settings: 'EVERYONE', as_user_id: 'u1' },
    { id: '1500000000000000002', name: null, text: 'Vote in the poll today, friends!', card_uri: 'card://cc1', media_keys: [], nullcast: true, as_user_id: 'u1' },
    { id: '1500000000000000004', name: 'Followers only', text: 'For you', media_keys: [], conversation_settings: 'FOLLOWING', as_user_id: 'u1' },
  ],
  draft_post: [
    { id: 'd1', name: 'Teaser draft', text: 'Soon', media_keys: ['3_99'], card_uri: null, nullcast: true, as_user_id: 'u1' },
    { id: 'd2', name: 'Raw', text: 'x', media_keys: ['3_77'], card_uri: 'card://other', nullcast: false, as_user_id: 'u1' },
  ],
  scheduled_post: [
    { id: 's1', name: 'Drop', text: 'Teaser', scheduled_at: '2026-12-01T10:00:00+01:00', scheduled_status: 'SCHEDULED', media_keys: [], nullcast: true, as_user_id: 'u1' },
    { id: 's2', name: 'Done', text: 'Old', scheduled_at: '2026-01-01T00:00:00Z', scheduled_status: 'SUCCESS', tweet_id: '1500000000000000003', as_user_id: 'u1' },
  ],
  campaign: [
    { id: 'c1', name: 'Summer Sale', funding_instrument_id: 'fi1', daily_budget_amount_local_micro: 35_000_000, entity_status: 'ACTIVE', budget_optimization: 'CAMPAIGN', standard_delivery: true },
    { id: 'c3', name: 'Costs ${not interpolated} $${kept}', funding_instrument_id: 'fi1', entity_status: 'PAUSED', budget_optimization: 'CAMPAIGN', standard_delivery: true },
    { id: 'c2', name: 'summer sale!', funding_instrument_id: 'fi1', entity_status: 'PAUSED', budget_optimization: 'CAMPAIGN', standard_delivery: true, total_budget_amount_local_micro: 1_234_567 },
  ],
  line_item: [
    // as the service creates a line item that names only what it must: goal, bid strategy, billing and delivery its own
    { id: 'l1', campaign_id: 'c1', name: 'yes', product_type: 'PROMOTED_TWEETS', objective: 'ENGAGEMENTS', placements: ['ALL_ON_SERVICE'], bid_amount_local_micro: 1_500_000, start_time: '2026-06-01T09:00:00+02:00', entity_status: 'ACTIVE', categories: [], pay_by: 'ENGAGEMENT', goal: 'ENGAGEMENT', bid_strategy: 'AUTO', standard_delivery: true },
    // one that chose otherwise: its goal, bid strategy and delivery are written, its billing (REACH's own) is not
    { id: 'l2', campaign_id: 'c2', name: 'Reach', product_type: 'PROMOTED_TWEETS', objective: 'REACH', placements: ['ALL_ON_SERVICE'], bid_amount_local_micro: 2_000_000, start_time: '2026-06-01T07:00:00Z', entity_status: 'PAUSED', categories: [], pay_by: 'IMPRESSION', goal: 'REACH_WITH_ENGAGEMENT', bid_strategy: 'TARGET', standard_delivery: false },
  ],
  targeting_criterion: [
    { id: 't1', line_item_id: 'l1', targeting_type: 'CUSTOM_AUDIENCE', targeting_value: 'aud1', operator_type: 'EQ' },
    { id: 't2', line_item_id: 'l1', targeting_type: 'BROAD_KEYWORD', targeting_value: 'cheap', operator_type: 'NE' },
  ],
  media_creative: [{ id: 'mc1', line_item_id: 'l1', account_media_id: 'am1', creative_type: 'PREROLL', landing_url: null }],
  promoted_post: [
    { id: 'pp1', line_item_id: 'l1', tweet_id: '1346184843436720128' },
    { id: 'pp2', line_item_id: 'l1', tweet_id: '1500000000000000001' },
  ],
});

describe('generateManifests', () => {
  const [out] = generateManifests([input(LIVE)]);
  const text = out?.text ?? '';
  const doc = parse(text) as Record<string, any>;

  it('starts with the modeline and says where and when it was generated', () => {
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/manifest.schema.json');
    expect(text).toContain('# Generated by adsctl generate from account acc1 at sandbox on 2026-11-26T14:00:00Z.');
    expect(out?.fileName).toBe('acc1.yaml');
  });

  it('quotes names YAML would read otherwise', () => {
    expect(text).toContain('name: "Acme: Outdoor #1"');
    expect(doc['account'].name).toBe('Acme: Outdoor #1');
    expect(doc['campaigns'].summer_sale.line_items.yes.name).toBe('yes');
  });

  it('writes a name holding ${ so that the loader reads it back as it was, not as an interpolation', () => {
    const loaded = loadManifestSources([{ file: 'acc1.yaml', text }]);
    expect(loaded.diagnostics).toEqual([]);
    const names = loaded.value?.accounts[0]?.resources.filter((r) => r.kind === 'campaign').map((r) => r.attributes['name']);
    expect(names).toContain('Costs ${not interpolated} $${kept}');
  });

  it('writes a list item whose schema takes no bare value as a map (a media creative)', () => {
    expect(doc['campaigns'].summer_sale.line_items.yes.media_creatives).toEqual([{ account_media_id: 'am1' }]);
  });

  it('writes references by logical name, money in units, times in UTC, the serving status always, and leaves other defaults out', () => {
    const summer = doc['campaigns'].summer_sale;
    expect(summer).toMatchObject({ name: 'Summer Sale', funding_instrument: 'visa_ending_in_1234', daily_budget: '35.00' });
    // what serves is said, default or not: a hand pause after adoption is then drift
    expect(summer.entity_status).toBe('ACTIVE');
    expect(summer.line_items.yes.entity_status).toBe('ACTIVE');
    expect(summer.budget_optimization).toBeUndefined();
    expect(summer.standard_delivery).toBeUndefined();
    const li = summer.line_items.yes;
    expect(li).toMatchObject({ bid_amount: '1.50', start_time: '2026-06-01T07:00:00Z', placements: ['ALL_ON_SERVICE'] });
    expect(li.categories).toBeUndefined();
    for (const field of ['pay_by', 'goal', 'bid_strategy', 'standard_delivery']) expect(li[field], field).toBeUndefined();
    expect(doc['campaigns'].summer_sale_2.line_items.reach).toEqual({
      name: 'Reach', product_type: 'PROMOTED_TWEETS', objective: 'REACH', placements: ['ALL_ON_SERVICE'], standard_delivery: false, entity_status: 'PAUSED', bid_strategy: 'TARGET', bid_amount: '2.00', goal: 'REACH_WITH_ENGAGEMENT', start_time: '2026-06-01T07:00:00Z',
    });
    expect(li.targeting).toEqual([
      { targeting_type: 'BROAD_KEYWORD', targeting_value: 'cheap', operator_type: 'NE' },
      { targeting_type: 'CUSTOM_AUDIENCE', custom_audience: 'newsletter' },
    ]);
    // a post of the manifest by its logical name, any other by its id
    expect(li.promoted_posts).toEqual(['1346184843436720128', 'posts.launch']);
  });

  it('gives a colliding name a suffix and a comment, and warns', () => {
    expect(doc['campaigns'].summer_sale_2).toMatchObject({ name: 'summer sale!', total_budget: '1.234567', entity_status: 'PAUSED' });
    expect(text).toMatch(/# named like campaigns\.summer_sale \("summer sale!"\): given the key summer_sale_2\n\s+summer_sale_2:/);
    expect(out?.warnings.some((w) => w.includes('summer_sale_2'))).toBe(true);
  });

  it('names media and audiences as references to the live objects, with a comment', () => {
    expect(doc['media']).toEqual({ hero: { id: '3_99', name: 'Hero', file_name: 'hero.png' } });
    expect(doc['custom_audiences']).toEqual({ newsletter: { name: 'Newsletter', permissions: { other1: 'READ_ONLY' } } });
    expect(text).toContain('# members are not read from the service');
    expect(doc['cards']).toEqual({ summer_site: { name: 'Summer site', components: [{ type: 'MEDIA', media: 'hero' }, { type: 'DETAILS', title: 'Shop: now', destination: { type: 'WEBSITE', url: 'https://example.com' } }] } });
    expect(doc['features']).toEqual(['AGE_TARGETING', 'CITY_TARGETING']);
    expect(doc['do_not_reach']).toEqual({ description: 'Opted out' });
    expect(text).toContain('# its users are not read from the service');
  });

  // each kind of Part B's creatives and posts, as a person writes it: cards and media by logical name, the author and defaults left out
  it.each([
    ['conversation_cards', { tent_poll: { name: 'Tent poll', format: 'image', media: 'hero', first_cta: '#Tents', first_cta_tweet: 'I want a tent', title: 'Pick one', thank_you_text: 'Thanks!' } }],
    ['posts', { launch: { name: 'Launch', text: 'Summer sale starts now', card: 'summer_site' }, vote_in_the_poll_today: { text: 'Vote in the poll today, friends!', conversation_card: 'tent_poll' }, followers_only: { name: 'Followers only', text: 'For you', conversation_settings: 'FOLLOWING' } }],
    ['draft_posts', { teaser_draft: { name: 'Teaser draft', text: 'Soon', media: ['hero'] }, raw: { name: 'Raw', text: 'x', nullcast: false, card_uri: 'card://other', media_keys: ['3_77'] } }],
    ['scheduled_posts', { drop: { name: 'Drop', text: 'Teaser', scheduled_at: '2026-12-01T09:00:00Z' } }],
  ])('writes %s', (collection, expected) => {
    expect(doc[collection]).toEqual(expected);
  });

  it('says what it does not generate, in the file and as a warning', () => {
    expect(text).toContain('custom audience aud2 ("Engaged") is not in this manifest: flexible audiences are not generated yet');
    expect(text).toContain('scheduled posts: 1 already published (s2) are not in this manifest');
    expect(out?.warnings.some((w) => w.includes('scheduled post(s) of account acc1 already published'))).toBe(true);
    expect(text).not.toContain('not read by adsctl generate yet');
    const [unread] = generateManifests([input(LIVE, ['scheduled_post'])]);
    expect(unread?.text).toContain('scheduled_posts: not read by adsctl generate yet');
    expect(unread?.warnings.some((w) => w.startsWith('scheduled posts are not generated yet'))).toBe(true);
  });

  it('binds every address it writes', () => {
    expect(out?.bindings.map((b) => `${b.address}=${b.id}`).sort()).toEqual(
      [
        'account=acc1',
        'features.AGE_TARGETING=AGE_TARGETING',
        'features.CITY_TARGETING=CITY_TARGETING',
        'do_not_reach=dnr1',
        'funding_instruments.visa_ending_in_1234=fi1',
        'media.hero=3_99',
        'cards.summer_site=card1',
        'conversation_cards.tent_poll=cc1',
        'posts.launch=1500000000000000001',
        'posts.vote_in_the_poll_today=1500000000000000002',
        'posts.followers_only=1500000000000000004',
        'draft_posts.teaser_draft=d1',
        'draft_posts.raw=d2',
        'scheduled_posts.drop=s1',
        'custom_audiences.newsletter=aud1',
        'custom_audiences.newsletter.permissions.other1=aud1:p1',
        'campaigns.summer_sale=c1',
        'campaigns.summer_sale_2=c2',
        'campaigns.summer_sale.line_items.yes=l1',
        'campaigns.costs_not_interpolated_kept=c3',
        'campaigns.summer_sale.line_items.yes.media_creatives.am1=mc1',
        'campaigns.summer_sale_2.line_items.reach=l2',
        'campaigns.summer_sale.line_items.yes.targeting["BROAD_KEYWORD/NE:cheap"]=t2',
        'campaigns.summer_sale.line_items.yes.targeting["CUSTOM_AUDIENCE:custom_audiences.newsletter"]=t1',
        'campaigns.summer_sale.line_items.yes.promoted_posts["1346184843436720128"]=pp1',
        'campaigns.summer_sale.line_items.yes.promoted_posts["posts.launch"]=pp2',
      ].sort(),
    );
  });

  // generate --merge adds a child only after its parent (src/generate/merge.ts): an audience's permissions after the audience
  it('binds each object before the objects under it', () => {
    const seen = new Set<string>();
    const late = (out?.bindings ?? []).filter((b) => {
      const parent = b.steps.slice(0, -1).map((s) => `${s.collection}\u0000${s.key}`).join('\u0001');
      seen.add(b.steps.map((s) => `${s.collection}\u0000${s.key}`).join('\u0001'));
      return b.steps.length > 1 && !seen.has(parent);
    });
    expect(late.map((b) => b.address)).toEqual([]);
  });

  it('is the same text when generated again', () => {
    expect(generateManifests([input(LIVE)])[0]?.text).toBe(text);
  });
});
