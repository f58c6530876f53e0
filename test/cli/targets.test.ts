import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import { filterTargets } from '../../src/plan/targets.js';
import { formatAddress, parseAddress } from '../../src/manifest/address.js';

const addr = (text: string) => parseAddress(text).value!;

function change(text: string, action: ResourceChange['action'], after: Record<string, unknown> = {}): ResourceChange {
  const address = addr(text);
  return { account: 'a', address, kind: address.kind, action, before: null, after, changes: [], drift: false, protected: false };
}

const all: ResourceChange[] = [
  change('account', 'create'),
  change('funding_instruments.card', 'create'),
  change('funding_instruments.other', 'create'),
  change('campaigns.a', 'create', { funding_instrument_id: { $ref: 'funding_instruments.card' } }),
  change('campaigns.a.line_items.x', 'create', { campaign_id: { $ref: 'campaigns.a' } }),
  change('campaigns.a.line_items.x.promoted_posts["1"]', 'create', { line_item_id: { $ref: 'campaigns.a.line_items.x' } }),
  change('campaigns.a.line_items.x.targeting["LOCATION:us"]', 'create', { line_item_id: { $ref: 'campaigns.a.line_items.x' } }),
  change('campaigns.b', 'update'),
  change('campaigns.b.line_items.y', 'update'),
];

describe('--target', () => {
  it.each([
    ['no target keeps everything', [], all.map((c) => formatAddress(c.address))],
    ['a resource brings its children, new ancestors and what it refers to', ['campaigns.a.line_items.x'], ['account', 'campaigns.a', 'campaigns.a.line_items.x', 'campaigns.a.line_items.x.promoted_posts["1"]', 'campaigns.a.line_items.x.targeting["LOCATION:us"]', 'funding_instruments.card']],
    ['existing ancestors are not touched (the account being new, it comes along)', ['campaigns.b.line_items.y'], ['account', 'campaigns.b.line_items.y']],
    ['a campaign brings its funding instrument, not the other one', ['campaigns.a'], ['account', 'campaigns.a', 'campaigns.a.line_items.x', 'campaigns.a.line_items.x.promoted_posts["1"]', 'campaigns.a.line_items.x.targeting["LOCATION:us"]', 'funding_instruments.card']],
    [
      'one child of a new serving line item brings the whole line item: activated with part of its targeting, it would serve more widely',
      ['campaigns.a.line_items.x.promoted_posts["1"]'],
      ['account', 'campaigns.a', 'campaigns.a.line_items.x', 'campaigns.a.line_items.x.promoted_posts["1"]', 'campaigns.a.line_items.x.targeting["LOCATION:us"]', 'funding_instruments.card'],
    ],
  ])('%s', (_name, targets, expected) => {
    const kept = filterTargets(all, targets.map(addr)).map((c) => formatAddress(c.address)).sort();
    expect(kept).toEqual([...expected].sort());
  });
});
