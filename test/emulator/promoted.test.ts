import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_OTHER_POSTS, SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { startTestEmulator, type Params, type TestClient } from '../support/client.js';
import { createCampaign, createLineItem } from '../support/fixtures.js';
import { loginAs } from '../support/login.js';
import { expectError } from '../support/assertions.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
let tweetsCampaign: string;
let accountsCampaign: string;
let mediaCampaign: string;

const PT_FIELDS = ['approval_status', 'created_at', 'deleted', 'entity_status', 'id', 'line_item_id', 'tweet_id', 'updated_at'];
const PA_FIELDS = ['approval_status', 'created_at', 'deleted', 'entity_status', 'id', 'line_item_id', 'updated_at', 'user_id'];
const OWNER = '756201191646691328';
const ACME_GEAR = '2244994945';
const ACME_NEWS = '6253282';
const INELIGIBLE = '1000000000000000001';
/** Published posts made outside the advertising API (by other users), added to the emulator's world. */
const [GEAR_POST, GEAR_POST_2, NEWS_POST] = SEED_OTHER_POSTS.map((p) => p.id) as [string, string, string];

const tweets = (suffix = ''): string => `/12/accounts/${account}/promoted_tweets${suffix}`;
const accounts = (suffix = ''): string => `/12/accounts/${account}/promoted_accounts${suffix}`;
let nextPost = 0;
const freshPosts = (n: number): string[] => SEED_POST_IDS.slice(nextPost, (nextPost += n));


const tweetsLineItem = async (overrides: Record<string, Params[string] | null> = {}): Promise<any> => createLineItem(client, account, tweetsCampaign, overrides);
const accountsLineItem = async (overrides: Record<string, Params[string] | null> = {}): Promise<any> =>
  createLineItem(client, account, accountsCampaign, { product_type: 'PROMOTED_ACCOUNT', objective: 'FOLLOWERS', ...overrides });

async function promote(lineItemId: string, ids: readonly string[]): Promise<any[]> {
  const r = await client.post(tweets(), { line_item_id: lineItemId, tweet_ids: ids.join(',') }, { as: 'form' });
  expect(r.status, r.text).toBe(201);
  return r.body.data;
}

async function listTweetIds(params: Params): Promise<string[]> {
  const r = await client.get(tweets(), { count: 1000, ...params });
  expect(r.status, r.text).toBe(200);
  return r.body.data.map((d: { id: string }) => d.id);
}

function historyWindow(): { start_time: string; end_time: string } {
  const hour = Math.floor(testNow() / 3_600_000) * 3_600_000;
  const fmt = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { start_time: fmt(hour - 3_600_000), end_time: fmt(hour + 7_200_000) };
}

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  tweetsCampaign = (await createCampaign(client, account)).id;
  accountsCampaign = (await createCampaign(client, account)).id;
  mediaCampaign = (await createCampaign(client, account)).id;
});
afterAll(() => emulator.close());

describe('POST promoted_tweets', () => {
  it('answers 201 with data as an array plus total_count, each record ACTIVE and ACCEPTED', async () => {
    const li = (await tweetsLineItem()).id;
    const [post] = freshPosts(1);
    const r = await client.post(tweets(), { line_item_id: li, tweet_ids: post! }, { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.total_count).toBe(1);
    expect(r.body.data).toHaveLength(1);
    expect(Object.keys(r.body.data[0]).sort()).toEqual(PT_FIELDS);
    expect(r.body.data[0]).toMatchObject({ line_item_id: li, tweet_id: post, entity_status: 'ACTIVE', approval_status: 'ACCEPTED', deleted: false });
    expect(r.body.request.params).toEqual({ account_id: account, line_item_id: li, tweet_ids: [post] });
  });

  it('promotes several posts in one request, in the order given', async () => {
    const li = (await tweetsLineItem()).id;
    const posts = freshPosts(3);
    const data = await promote(li, posts);
    expect(data.map((d) => d.tweet_id)).toEqual(posts);
  });

  it('takes 50 post ids and refuses 51, promoting nothing', async () => {
    const li = (await tweetsLineItem()).id;
    const posts = freshPosts(51);
    const refused = await client.post(tweets(), { line_item_id: li, tweet_ids: posts.join(',') });
    expectError(refused, 400, 'INVALID_PARAMETER', 'tweet_ids');
    expect(await listTweetIds({ line_item_ids: li })).toEqual([]);
    const ok = await client.post(tweets(), { line_item_id: li, tweet_ids: posts.slice(0, 50).join(',') });
    expect(ok.status).toBe(201);
    expect(ok.body.total_count).toBe(50);
  });

  it('does not duplicate an already promoted (line item, post) pair, nor a post given twice', async () => {
    const li = (await tweetsLineItem()).id;
    const [a, b] = freshPosts(2);
    const [first] = await promote(li, [a!]);
    const again = await promote(li, [a!, b!, b!]);
    expect(again.map((d) => d.tweet_id)).toEqual([a, b]);
    expect(again[0].id).toBe(first.id);
    expect(await listTweetIds({ line_item_ids: li })).toHaveLength(2);
  });

  it('promotes the same post on two line items as two promotions', async () => {
    const [post] = freshPosts(1);
    const one = await promote((await tweetsLineItem()).id, [post!]);
    const two = await promote((await tweetsLineItem()).id, [post!]);
    expect(one[0].id).not.toBe(two[0].id);
  });

  it("promotes a RETWEETS_ONLY promotable user's post through a new promoted-only repost", async () => {
    const li = (await tweetsLineItem()).id;
    const [data] = await promote(li, [GEAR_POST]);
    expect(data.tweet_id).toMatch(/^\d+$/);
    expect(data.tweet_id).not.toBe(GEAR_POST);
    const direct = await promote((await tweetsLineItem()).id, [data.tweet_id]);
    expect(direct[0].tweet_id).toBe(data.tweet_id);
    const [again] = await promote(li, [GEAR_POST]);
    expect(again.id).toBe(data.id);
    expect(again.tweet_id).toBe(data.tweet_id);
  });

  const refusals: Array<[string, (li: string) => Params, number, string, string]> = [
    ['line_item_id is required', () => ({ tweet_ids: SEED_POST_IDS[0]! }), 400, 'MISSING_PARAMETER', 'line_item_id'],
    ['tweet_ids is required', (li) => ({ line_item_id: li }), 400, 'MISSING_PARAMETER', 'tweet_ids'],
    ['tweet_ids are longs', (li) => ({ line_item_id: li, tweet_ids: `${SEED_POST_IDS[0]},[TWEET_ID]` }), 400, 'INVALID_PARAMETER', 'tweet_ids'],
    ['tweet_id (singular) is not a parameter', (li) => ({ line_item_id: li, tweet_id: SEED_POST_IDS[0]! }), 400, 'INVALID_PARAMETER', 'tweet_id'],
    ['an unknown post is not found', (li) => ({ line_item_id: li, tweet_ids: '42' }), 404, 'NOT_FOUND', 'tweet_ids'],
    ['a post whose author is not a promotable user', (li) => ({ line_item_id: li, tweet_ids: NEWS_POST }), 400, 'INVALID_TWEET', 'tweet_ids'],
    ['an unknown line item is not found', () => ({ line_item_id: 'zzzzzz', tweet_ids: SEED_POST_IDS[0]! }), 404, 'NOT_FOUND', 'line_item_id'],
  ];
  it.each(refusals)('%s', async (_name, params, status, code, parameter) => {
    const li = (await tweetsLineItem()).id;
    expectError(await client.post(tweets(), params(li), { as: 'form' }), status, code, parameter);
    expect(await listTweetIds({ line_item_ids: li })).toEqual([]);
  });

  it('the message of a non-numeric id is the service\'s "Expected Long"', async () => {
    const li = (await tweetsLineItem()).id;
    const r = await client.post(tweets(), { line_item_id: li, tweet_ids: '[TWEET_ID]' });
    expect(r.body.errors[0]).toEqual({ code: 'INVALID_PARAMETER', message: 'Expected Long, got "[TWEET_ID]" for tweet_ids', parameter: 'tweet_ids' });
  });

  it('is all or nothing: one bad post id promotes none of the others', async () => {
    const li = (await tweetsLineItem()).id;
    const r = await client.post(tweets(), { line_item_id: li, tweet_ids: [...freshPosts(2), '42'].join(',') });
    expect(r.status).toBe(404);
    expect(await listTweetIds({ line_item_ids: li })).toEqual([]);
  });

  it('refuses posts on a MEDIA line item with INCOMPATIBLE_LINE_ITEM', async () => {
    const li = (await createLineItem(client, account, mediaCampaign, { product_type: 'MEDIA', objective: 'PREROLL_VIEWS' })).id;
    expectError(await client.post(tweets(), { line_item_id: li, tweet_ids: freshPosts(1)[0]! }), 400, 'INCOMPATIBLE_LINE_ITEM', 'line_item_id');
  });

  it('on a PROMOTED_ACCOUNT line item a post adds the timeline placement', async () => {
    const li = await accountsLineItem({ placements: 'SERVICE_SEARCH' });
    await promote(li.id, freshPosts(1));
    const after = await client.get(`/12/accounts/${account}/line_items/${li.id}`);
    expect(after.body.data.placements).toEqual(['SERVICE_SEARCH', 'SERVICE_TIMELINE']);
  });

  it('refuses a deleted line item', async () => {
    const li = (await tweetsLineItem()).id;
    await client.delete(`/12/accounts/${account}/line_items/${li}`);
    expectError(await client.post(tweets(), { line_item_id: li, tweet_ids: freshPosts(1)[0]! }), 404, 'NOT_FOUND', 'line_item_id');
  });
});

describe('promoted_tweets permissions (users from the three-legged flow)', () => {
  it('an AD_MANAGER promotes the FULL user posts but not a repost, which needs TWEET_COMPOSER', async () => {
    const manager = client.as(await loginAs(client, 'adsctl_manager'));
    const li = (await tweetsLineItem()).id;
    expect((await manager.post(tweets(), { line_item_id: li, tweet_ids: freshPosts(1)[0]! })).status).toBe(201);
    expectError(await manager.post(tweets(), { line_item_id: li, tweet_ids: GEAR_POST_2 }), 403, 'ACTION_NOT_ALLOWED');
    expect(await listTweetIds({ line_item_ids: li })).toHaveLength(1);
  });

  it('a CAMPAIGN_ANALYST reads but cannot promote', async () => {
    const analyst = client.as(await loginAs(client, 'adsctl_analyst'));
    const li = (await tweetsLineItem()).id;
    expect((await analyst.get(tweets(), { line_item_ids: li })).status).toBe(200);
    expectError(await analyst.post(tweets(), { line_item_id: li, tweet_ids: freshPosts(1)[0]! }), 403, 'ACTION_NOT_ALLOWED');
  });
});

describe('GET promoted_tweets', () => {
  let li: string;
  let other: string;
  let ids: string[];
  beforeAll(async () => {
    li = (await tweetsLineItem()).id;
    other = (await tweetsLineItem()).id;
    ids = (await promote(li, freshPosts(4))).map((d) => d.id);
    await promote(other, freshPosts(1));
  });

  it('filters by line_item_ids, in creation order', async () => {
    expect(await listTweetIds({ line_item_ids: li })).toEqual(ids);
    expect(await listTweetIds({ line_item_ids: `${li},${other}` })).toHaveLength(5);
  });

  it('filters by promoted_tweet_ids, alone or with line_item_ids', async () => {
    expect(await listTweetIds({ promoted_tweet_ids: `${ids[3]},${ids[1]}` })).toEqual([ids[1], ids[3]]);
    expect(await listTweetIds({ promoted_tweet_ids: ids[0]!, line_item_ids: other })).toEqual([]);
  });

  it('lists the whole account without filters', async () => {
    const all = await listTweetIds({});
    for (const id of ids) expect(all).toContain(id);
  });

  it('pages with count and cursor, counts with with_total_count', async () => {
    const p1 = await client.get(tweets(), { line_item_ids: li, count: 3 });
    const p2 = await client.get(tweets(), { line_item_ids: li, count: 3, cursor: p1.body.next_cursor });
    expect([...p1.body.data, ...p2.body.data].map((d: { id: string }) => d.id)).toEqual(ids);
    expect(p2.body.next_cursor).toBeNull();
    expect((await client.get(tweets(), { line_item_ids: li, with_total_count: true })).body.total_count).toBe(4);
  });

  it('sorts by created_at descending', async () => {
    const r = await client.get(tweets(), { line_item_ids: li, sort_by: 'created_at-desc' });
    const times = r.body.data.map((d: { created_at: string }) => d.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  const refusals: Array<[string, Params, string]> = [
    ['line_item_ids takes at most 200 ids', { line_item_ids: Array.from({ length: 201 }, (_, i) => `l${i}`).join(',') }, 'line_item_ids'],
    ['promoted_tweet_ids takes at most 200 ids', { promoted_tweet_ids: Array.from({ length: 201 }, (_, i) => `p${i}`).join(',') }, 'promoted_tweet_ids'],
    ['sort_by needs a supported attribute', { sort_by: 'tweet_id-asc' }, 'sort_by'],
    ['count is at most 1000', { count: 1001 }, 'count'],
  ];
  it.each(refusals)('%s', async (_name, params, parameter) => {
    expectError(await client.get(tweets(), params), 400, 'INVALID_PARAMETER', parameter);
  });

  it('GET /:id answers the record; an unknown id is 404', async () => {
    const r = await client.get(tweets(`/${ids[0]}`));
    expect(r.status).toBe(200);
    expect(r.body.data.id).toBe(ids[0]);
    expect(r.body.request.params).toEqual({ account_id: account, promoted_tweet_id: ids[0] });
    expectError(await client.get(tweets('/zzzzzz')), 404, 'NOT_FOUND', 'promoted_tweet_id');
  });
});

describe('promoted_tweets: DELETE, the deleted rules, no PUT', () => {
  it('DELETE by promotion id marks it deleted; hidden unless with_deleted; a second DELETE is 404', async () => {
    const li = (await tweetsLineItem()).id;
    const [pt] = await promote(li, freshPosts(1));
    const r = await client.delete(tweets(`/${pt.id}`));
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: pt.id, deleted: true });
    expect(await listTweetIds({ line_item_ids: li })).toEqual([]);
    expect(await listTweetIds({ line_item_ids: li, with_deleted: true })).toEqual([pt.id]);
    expectError(await client.get(tweets(`/${pt.id}`)), 404, 'NOT_FOUND');
    expect((await client.get(tweets(`/${pt.id}`), { with_deleted: true })).body.data.deleted).toBe(true);
    expectError(await client.delete(tweets(`/${pt.id}`)), 404, 'NOT_FOUND');
  });

  it('DELETE takes the promotion id, not the post id', async () => {
    const li = (await tweetsLineItem()).id;
    const [pt] = await promote(li, freshPosts(1));
    expectError(await client.delete(tweets(`/${pt.tweet_id}`)), 404, 'NOT_FOUND');
  });

  it('a deleted line item hides its promoted posts (still deleted=false) unless with_deleted', async () => {
    const li = (await tweetsLineItem()).id;
    const [pt] = await promote(li, freshPosts(1));
    expect((await client.delete(`/12/accounts/${account}/line_items/${li}`)).status).toBe(200);
    expect(await listTweetIds({ line_item_ids: li })).toEqual([]);
    expect(await listTweetIds({ promoted_tweet_ids: pt.id })).toEqual([]);
    const shown = await client.get(tweets(), { line_item_ids: li, with_deleted: true, with_total_count: true });
    expect(shown.body.data).toEqual([expect.objectContaining({ id: pt.id, deleted: false })]);
    expect(shown.body.total_count).toBe(1);
    expect((await client.get(tweets(), { line_item_ids: li, with_total_count: true })).body.total_count).toBe(0);
    expectError(await client.get(tweets(`/${pt.id}`)), 404, 'NOT_FOUND');
    expect((await client.get(tweets(`/${pt.id}`), { with_deleted: true })).body.data).toMatchObject({ id: pt.id, deleted: false });
  });

  it.each([['/:id', true], ['the collection', false]])('PUT on %s is 405', async (_name, withId) => {
    const li = (await tweetsLineItem()).id;
    const [pt] = await promote(li, freshPosts(1));
    expectError(await client.put(withId ? tweets(`/${pt.id}`) : tweets(), { entity_status: 'PAUSED' }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('records CREATE and DELETE in the account history as PROMOTED_TWEET', async () => {
    const li = (await tweetsLineItem()).id;
    const [pt] = await promote(li, freshPosts(1));
    await client.delete(tweets(`/${pt.id}`));
    const r = await client.get(`/12/accounts/${account}/account_history`, { entity_type: 'PROMOTED_TWEET', entity_id: pt.id, ...historyWindow() });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((h: { change_type: string }) => h.change_type)).toEqual(['CREATE', 'DELETE']);
  });
});

describe('promoted_accounts', () => {
  it('POST answers 201 with the record; user_id is echoed as given', async () => {
    const li = (await accountsLineItem()).id;
    const r = await client.post(accounts(), { line_item_id: li, user_id: OWNER }, { as: 'form' });
    expect(r.status, r.text).toBe(201);
    expect(Object.keys(r.body.data).sort()).toEqual(PA_FIELDS);
    expect(r.body.data).toMatchObject({ line_item_id: li, user_id: OWNER, entity_status: 'ACTIVE', approval_status: 'ACCEPTED', deleted: false });
    expect(r.body.request.params).toEqual({ account_id: account, line_item_id: li, user_id: OWNER });
  });

  it('an already promoted user is ignored: the existing record comes back, nothing new', async () => {
    const li = (await accountsLineItem()).id;
    const first = await client.post(accounts(), { line_item_id: li, user_id: ACME_GEAR });
    const again = await client.post(accounts(), { line_item_id: li, user_id: ACME_GEAR });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await client.get(accounts(), { line_item_ids: li })).body.data).toHaveLength(1);
  });

  const refusals: Array<[string, (li: string, tweetsLi: string) => Params, number, string, string]> = [
    ['line_item_id is required', () => ({ user_id: OWNER }), 400, 'MISSING_PARAMETER', 'line_item_id'],
    ['user_id is required', (li) => ({ line_item_id: li }), 400, 'MISSING_PARAMETER', 'user_id'],
    ['user_id is a long', (li) => ({ line_item_id: li, user_id: 'acme_gear' }), 400, 'INVALID_PARAMETER', 'user_id'],
    ['a line item not configured for promoted accounts', (_li, tweetsLi) => ({ line_item_id: tweetsLi, user_id: OWNER }), 400, 'INCOMPATIBLE_LINE_ITEM', 'line_item_id'],
    ['an ineligible user: nobody is promoted', (li) => ({ line_item_id: li, user_id: INELIGIBLE }), 400, 'INVALID_USER', 'user_id'],
    ['an unknown user', (li) => ({ line_item_id: li, user_id: '99' }), 400, 'INVALID_USER_ID', 'user_id'],
    ['an unknown line item', () => ({ line_item_id: 'zzzzzz', user_id: OWNER }), 404, 'NOT_FOUND', 'line_item_id'],
  ];
  it.each(refusals)('%s', async (_name, params, status, code, parameter) => {
    const li = (await accountsLineItem()).id;
    const tweetsLi = (await tweetsLineItem()).id;
    expectError(await client.post(accounts(), params(li, tweetsLi), { as: 'form' }), status, code, parameter);
    expect((await client.get(accounts(), { line_item_ids: li, with_deleted: true })).body.data).toEqual([]);
  });

  it('GET list: 400 when none of the given line items is configured for promoted accounts', async () => {
    const tweetsLi = (await tweetsLineItem()).id;
    expectError(await client.get(accounts(), { line_item_ids: tweetsLi }), 400, 'INCOMPATIBLE_LINE_ITEM', 'line_item_ids');
    expectError(await client.get(accounts(), { line_item_ids: 'zzzzzz' }), 400, 'INCOMPATIBLE_LINE_ITEM', 'line_item_ids');
    const li = (await accountsLineItem()).id;
    const created = await client.post(accounts(), { line_item_id: li, user_id: OWNER });
    const mixed = await client.get(accounts(), { line_item_ids: `${tweetsLi},${li}` });
    expect(mixed.status).toBe(200);
    expect(mixed.body.data.map((d: { id: string }) => d.id)).toEqual([created.body.data.id]);
  });

  it('GET list filters by promoted_account_ids, counts and pages', async () => {
    const li = (await accountsLineItem()).id;
    const ids: string[] = [];
    for (const user of [OWNER, ACME_GEAR, ACME_NEWS]) ids.push((await client.post(accounts(), { line_item_id: li, user_id: user })).body.data.id);
    expect((await client.get(accounts(), { promoted_account_ids: `${ids[2]},${ids[0]}` })).body.data.map((d: { id: string }) => d.id)).toEqual([ids[0], ids[2]]);
    const p1 = await client.get(accounts(), { line_item_ids: li, count: 2 });
    const p2 = await client.get(accounts(), { line_item_ids: li, count: 2, cursor: p1.body.next_cursor });
    expect([...p1.body.data, ...p2.body.data].map((d: { id: string }) => d.id)).toEqual(ids);
    expect((await client.get(accounts(), { line_item_ids: li, with_total_count: true })).body.total_count).toBe(3);
    const all = (await client.get(accounts(), { count: 1000 })).body.data.map((d: { id: string }) => d.id);
    for (const id of ids) expect(all).toContain(id);
  });

  it('DELETE marks it deleted; hidden unless with_deleted; a second DELETE is 404; the user can be promoted again', async () => {
    const li = (await accountsLineItem()).id;
    const pa = (await client.post(accounts(), { line_item_id: li, user_id: OWNER })).body.data;
    const r = await client.delete(accounts(`/${pa.id}`));
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: pa.id, deleted: true });
    expect((await client.get(accounts(), { line_item_ids: li })).body.data).toEqual([]);
    expect((await client.get(accounts(), { line_item_ids: li, with_deleted: true })).body.data).toHaveLength(1);
    expectError(await client.get(accounts(`/${pa.id}`)), 404, 'NOT_FOUND', 'promoted_account_id');
    expect((await client.get(accounts(`/${pa.id}`), { with_deleted: true })).body.data.deleted).toBe(true);
    expectError(await client.delete(accounts(`/${pa.id}`)), 404, 'NOT_FOUND');
    const again = await client.post(accounts(), { line_item_id: li, user_id: OWNER });
    expect(again.status).toBe(201);
    expect(again.body.data.id).not.toBe(pa.id);
  });

  it('GET /:id answers the record', async () => {
    const li = (await accountsLineItem()).id;
    const pa = (await client.post(accounts(), { line_item_id: li, user_id: ACME_NEWS })).body.data;
    const r = await client.get(accounts(`/${pa.id}`));
    expect(r.body).toEqual({ request: { params: { account_id: account, promoted_account_id: pa.id } }, data: pa });
  });

  it.each([['/:id', true], ['the collection', false]])('PUT on %s is 405', async (_name, withId) => {
    const li = (await accountsLineItem()).id;
    const pa = (await client.post(accounts(), { line_item_id: li, user_id: OWNER })).body.data;
    expectError(await client.put(withId ? accounts(`/${pa.id}`) : accounts(), { user_id: ACME_GEAR }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('records CREATE and DELETE in the account history as PROMOTED_ACCOUNT', async () => {
    const li = (await accountsLineItem()).id;
    const pa = (await client.post(accounts(), { line_item_id: li, user_id: OWNER })).body.data;
    await client.delete(accounts(`/${pa.id}`));
    const r = await client.get(`/12/accounts/${account}/account_history`, { entity_type: 'PROMOTED_ACCOUNT', entity_id: pa.id, ...historyWindow() });
    expect(r.body.data.map((h: { change_type: string }) => h.change_type)).toEqual(['CREATE', 'DELETE']);
  });
});
