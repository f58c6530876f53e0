/**
 * The moment a serving line item carries no creative, in the plan (src/plan/creative-restores.ts,
 * src/plan/without-creative.ts): a swap of promoted posts under a serving line item says what apply
 * puts back when no new post can be added, and a serving line item the service shows without any
 * creative gets the manifest's first, before every other write of the account, ordered but not
 * made to depend on it.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import type { LiveAccount } from '../../src/live/types.js';
import { buildPlan } from '../../src/plan/build.js';
import type { AccountPlan, Step } from '../../src/plan/types.js';
import { ACCOUNT_ID, change, liveAccount } from './builders.js';

const LI = 'campaigns.c.line_items.l';
const post = (id: string): string => `${LI}.promoted_posts["${id}"]`;
const serving = (status: 'ACTIVE' | 'PAUSED'): ResourceChange[] => [
  change('campaigns.c', 'noop', { before: { entity_status: 'ACTIVE' }, after: { entity_status: 'ACTIVE' } }),
  change(LI, 'noop', { id: 'li1', before: { entity_status: status }, after: { entity_status: status } }),
];
const removal = (id: string, reason: ResourceChange['reason'] = 'removed'): ResourceChange => ({ ...change(post(id), 'delete', { id: `pt${id}`, before: { line_item_id: 'li1', tweet_id: id } }), reason });
const addition = (id: unknown, key = String(id)): ResourceChange => change(post(key), 'create', { after: { line_item_id: 'li1', tweet_id: id } });
const budget: ResourceChange = { ...change('campaigns.c', 'update', { before: { entity_status: 'ACTIVE', daily_budget_amount_local_micro: 5_000_000 }, after: { entity_status: 'ACTIVE', daily_budget_amount_local_micro: 6_000_000 } }), changes: [{ path: 'daily_budget_amount_local_micro', before: 5_000_000, after: 6_000_000, origin: 'manifest', forcesReplacement: false }] };
const keyword = change(`${LI}.targeting["BROAD_KEYWORD:snow"]`, 'create', { after: { line_item_id: 'li1', targeting_type: 'BROAD_KEYWORD', targeting_value: 'snow' } });

function planOf(changes: ResourceChange[], live: LiveAccount = liveAccount()): AccountPlan {
  const plan = buildPlan('plan', [{ account: ACCOUNT_ID, accountId: ACCOUNT_ID, endpoint: 'local', desired: undefined, changes, live, lookups: undefined, reads: 0, stateSerial: 0 }]);
  expect(plan.diagnostics).toEqual([]);
  return plan.accounts[0]!;
}

/** Each layer as `action kind: addresses`. */
const shape = (layers: Step[][]): string[][] => layers.map((layer) => layer.map((s) => `${s.action} ${s.kind}: ${s.operations.map((o) => o.address).join(' ')}`));

describe('a serving line item swapping its promoted post', () => {
  it('has the old one put back, with its values, only after its removal and only when the new one is not added', () => {
    const plan = planOf([...serving('ACTIVE'), removal('1'), addition('2')], liveAccount([['promoted_post', { id: 'pt1', line_item_id: 'li1', tweet_id: '1' }]]));
    expect(shape(plan.layers)).toEqual([[`delete promoted_post: ${post('1')}`], [`create promoted_post: ${post('2')}`]]);
    expect(plan.restores).toEqual([
      {
        parent: LI,
        insteadOf: [`create ${post('2')}`],
        operations: [{ key: `restore ${post('1')}`, address: post('1'), kind: 'promoted_post', action: 'create', params: { line_item_id: 'li1', tweet_id: '1' }, after: [`delete ${post('1')}`], phase: 'restore' }],
        steps: [{ type: 'grouped', kind: 'promoted_post', action: 'create', group: 'li1', limit: 50, operations: [expect.objectContaining({ key: `restore ${post('1')}` })] }],
      },
    ]);
    // nothing is put back unless needed: the restores are no writes of the plan
    expect(plan.requests.writes).toBe(2);
    expect(plan.withoutCreative).toBeUndefined();
  });

  it('has nothing put back on a paused line item, which swaps at once and serves nothing meanwhile', () => {
    expect(planOf([...serving('PAUSED'), removal('1'), addition('2')]).restores).toBeUndefined();
  });

  it('never has a post put back that was promoted outside adsctl: no manifest gave it', () => {
    expect(planOf([...serving('ACTIVE'), removal('9', 'added_outside'), addition('2')]).restores).toBeUndefined();
  });

  it('has a replaced promotion (same address, another post) put back under its address with its old post', () => {
    const replaced: ResourceChange = { ...change(post('7'), 'replace', { id: 'pt7', before: { line_item_id: 'li1', tweet_id: '1' }, after: { line_item_id: 'li1', tweet_id: '2' } }), reason: 'replace_field' };
    const [restore] = planOf([...serving('ACTIVE'), replaced]).restores ?? [];
    expect(restore?.insteadOf).toEqual([`create ${post('7')}`]);
    expect(restore?.operations.map((o) => [o.key, o.params, o.after])).toEqual([[`restore ${post('7')}`, { line_item_id: 'li1', tweet_id: '1' }, [`delete ${post('7')}`]]]);
  });
});

describe('a serving line item the service shows without a creative', () => {
  it('gets the manifest post before every other write, which does not depend on it', () => {
    const plan = planOf([...serving('ACTIVE').slice(1), budget, addition('2'), keyword]);
    expect(plan.withoutCreative).toEqual([{ address: LI, kind: 'line_item', id: 'li1', repairs: [post('2')] }]);
    expect(shape(plan.layers)).toEqual([[`create promoted_post: ${post('2')}`], [`update campaign: campaigns.c`, `create targeting_criterion: ${LI}.targeting["BROAD_KEYWORD:snow"]`]]);
    const ops = plan.layers.flat().flatMap((s) => s.operations);
    expect(ops.find((o) => o.address === post('2'))?.phase).toBe('repair');
    // ordered, not dependent: a refused repair leaves the other writes to go
    for (const op of ops) expect(op.after).not.toContain(`create ${post('2')}`);
  });

  it('gets it after what the repair itself waits for: a post created by the same plan', () => {
    const newPost = change('posts.launch', 'create', { after: { text: 'Launch' } });
    const plan = planOf([...serving('ACTIVE').slice(1), budget, newPost, addition({ $ref: 'posts.launch' }, '8')]);
    expect(shape(plan.layers)).toEqual([['create post: posts.launch'], [`create promoted_post: ${post('8')}`], ['update campaign: campaigns.c']]);
  });

  it('is not repaired when it carries a post, nor when it is paused, nor when its campaign is', () => {
    const carrying = planOf([...serving('ACTIVE'), addition('2'), budget], liveAccount([['promoted_post', { id: 'pt1', line_item_id: 'li1', tweet_id: '1' }]]));
    expect(carrying.withoutCreative).toBeUndefined();
    expect(shape(carrying.layers)).toEqual([[`update campaign: campaigns.c`, `create promoted_post: ${post('2')}`]]);
    expect(planOf([...serving('PAUSED'), addition('2')]).withoutCreative).toBeUndefined();
    const pausedCampaign = change('campaigns.c', 'noop', { before: { entity_status: 'PAUSED' }, after: { entity_status: 'PAUSED' } });
    expect(planOf([pausedCampaign, serving('ACTIVE')[1]!, addition('2')]).withoutCreative).toBeUndefined();
  });
});
