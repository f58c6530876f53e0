import { describe, expect, it } from 'vitest';
import { diffResources } from '../../src/diff/diff.js';
import type { DesiredResource } from '../../src/manifest/types.js';
import { A, ACCOUNT_KEY, accountState, appliedScenario, changeAt, desired, editDesired, editLive, liveAccount, liveLineItem, planInput, scenarioInput, type Scenario } from './builders.js';

function diffOf(s: Scenario, text: string): ReturnType<typeof changeAt> {
  return changeAt(diffResources(scenarioInput(s)).value, text);
}

function withAttributes(extra: Record<string, unknown>): (r: DesiredResource) => DesiredResource {
  return (r) => ({ ...r, attributes: { ...r.attributes, ...extra } });
}

describe('API defaults', () => {
  it('watches a status the manifest omits: a hand-made pause is drift, undone to the status last applied', () => {
    const s = appliedScenario();
    expect(s.entries[A.campaign]?.applied?.['entity_status']).toBe('ACTIVE');
    editLive(s, 'c1', (r) => ({ ...r, entity_status: 'PAUSED' }));
    editLive(s, 'l1', (r) => ({ ...r, entity_status: 'PAUSED' }));
    for (const address of [A.campaign, A.lineItem]) {
      expect(diffOf(s, address), address).toMatchObject({ action: 'update', drift: true, changes: [{ path: 'entity_status', before: 'PAUSED', after: 'ACTIVE', origin: 'drift' }] });
    }
  });

  it('watches a status the manifest omits: a hand-made activation of what was applied paused is drift', () => {
    const s = appliedScenario();
    s.entries[A.campaign] = { ...s.entries[A.campaign]!, applied: { ...s.entries[A.campaign]?.applied, entity_status: 'PAUSED' } };
    expect(diffOf(s, A.campaign)).toMatchObject({ action: 'update', drift: true, changes: [{ path: 'entity_status', before: 'ACTIVE', after: 'PAUSED', origin: 'drift' }] });
  });

  it('leaves a status to the service that neither the manifest nor the state records', () => {
    const s = appliedScenario();
    const { entity_status: _, ...applied } = s.entries[A.campaign]?.applied ?? {};
    s.entries[A.campaign] = { ...s.entries[A.campaign]!, applied };
    editLive(s, 'c1', (r) => ({ ...r, entity_status: 'PAUSED' }));
    expect(diffOf(s, A.campaign)).toMatchObject({ action: 'noop', changes: [] });
    expect(diffOf(s, A.campaign).after).not.toHaveProperty('entity_status');
  });

  it('shows the API default of an omitted field on a create', () => {
    const s = appliedScenario();
    s.entries = {};
    s.records = s.records.filter(([kind]) => kind === 'account' || kind === 'funding_instrument');
    expect(diffOf(s, A.campaign)).toMatchObject({ action: 'create', after: { entity_status: 'ACTIVE' } });
  });

  it('replaces an object with the status last applied, not a pause made by hand since', () => {
    const s = appliedScenario();
    editLive(s, 'l1', (r) => ({ ...r, entity_status: 'PAUSED' }));
    editDesired(s, A.lineItem, withAttributes({ objective: 'REACH' }));
    expect(diffOf(s, A.lineItem)).toMatchObject({ action: 'replace', drift: true, after: { entity_status: 'ACTIVE' } });
  });

  it('derives standard_delivery from budget_optimization and leaves it unmanaged under LINE_ITEM', () => {
    const s = appliedScenario();
    editDesired(s, A.campaign, withAttributes({ budget_optimization: 'LINE_ITEM' }));
    const change = diffOf(s, A.campaign);
    expect(change.changes.map((c) => c.path)).toEqual(['budget_optimization']);
    expect(change.after).not.toHaveProperty('standard_delivery');
  });

  it('does not manage a field the manifest leaves out and the API does not default', () => {
    const s = appliedScenario();
    editLive(s, 'c1', (r) => ({ ...r, purchase_order_number: 'PO-7', servable: true, effective_status: 'RUNNING', updated_at: '2026-02-02T00:00:00Z' }));
    editLive(s, 'l1', (r) => ({ ...r, goal: 'ENGAGEMENT', advertiser_user_id: '1', creative_source: 'OTHER', currency: 'EUR' }));
    expect(diffOf(s, A.campaign).action).toBe('noop');
    expect(diffOf(s, A.lineItem).action).toBe('noop');
  });
});

describe('fields the manifest stops setting', () => {
  it('unsets an updatable field adsctl applied before', () => {
    const s = appliedScenario();
    s.entries[A.lineItem] = { id: 'l1', applied: { ...s.entries[A.lineItem]?.applied, end_time: '2026-07-01T00:00:00Z' } };
    editLive(s, 'l1', (r) => ({ ...r, end_time: '2026-07-01T00:00:00Z' }));
    expect(diffOf(s, A.lineItem).changes).toEqual([{ path: 'end_time', before: '2026-07-01T00:00:00Z', after: null, origin: 'manifest', forcesReplacement: false }]);
  });

  it('leaves fields to unset out of a replacement and of a re-creation, which start from nothing', () => {
    const s = appliedScenario();
    s.entries[A.lineItem] = { id: 'l1', applied: { ...s.entries[A.lineItem]?.applied, end_time: '2026-07-01T00:00:00Z' } };
    editLive(s, 'l1', (r) => ({ ...r, end_time: '2026-07-01T00:00:00Z' }));
    editDesired(s, A.lineItem, withAttributes({ objective: 'REACH' }));
    const replaced = diffOf(s, A.lineItem);
    expect(replaced.action).toBe('replace');
    expect(replaced.after).not.toHaveProperty('end_time');
    expect(replaced.changes.map((c) => c.path)).toEqual(['objective']);
    s.records = s.records.filter(([, r]) => r['id'] !== 'l1');
    const recreated = diffOf(s, A.lineItem);
    expect(recreated).toMatchObject({ action: 'create', reason: 'deleted_outside' });
    expect(recreated.after).not.toHaveProperty('end_time');
  });

  it.each([
    { name: 'the name applied before', applied: { name: 'Acme' }, live: {}, changes: [] },
    { name: 'a name changed by hand since', applied: { name: 'Acme' }, live: { name: 'Renamed by hand' }, changes: [] },
    { name: 'the industry applied before, which the service can unset', applied: { name: 'Acme', industry_type: 'RETAIL' }, live: { industry_type: 'RETAIL' }, changes: [{ path: 'industry_type', before: 'RETAIL', after: null, origin: 'manifest', forcesReplacement: false }] },
  ])('keeps the live account name the manifest leaves out, which the service cannot unset: $name', ({ applied, live, changes }) => {
    const s = appliedScenario();
    s.resources = [desired('account', {}, { importId: ACCOUNT_KEY }), ...s.resources];
    s.entries['account'] = { id: ACCOUNT_KEY, applied };
    s.records = s.records.map(([kind, record]) => (kind === 'account' ? [kind, { ...record, ...live }] : [kind, record]));
    const change = diffOf(s, 'account');
    expect(change.changes).toEqual(changes);
    expect(change.after).not.toHaveProperty('name');
  });

  it('leaves a field the API defaults, or one that cannot be updated, to the API', () => {
    const s = appliedScenario();
    s.entries[A.lineItem] = { id: 'l1', applied: { ...s.entries[A.lineItem]?.applied, primary_web_event_tag: 'tag', categories: ['IAB1'] } };
    editLive(s, 'l1', (r) => ({ ...r, primary_web_event_tag: 'tag' }));
    expect(diffOf(s, A.lineItem).changes).toEqual([]);
  });
});

describe('normalisation and sets', () => {
  it.each([
    ['placements in another order', { placements: ['SERVICE_TIMELINE', 'PUBLISHER_NETWORK'] }, { placements: ['PUBLISHER_NETWORK', 'SERVICE_TIMELINE'] }],
    ['categories in another order, with a duplicate', { categories: ['IAB3-1', 'IAB1', 'IAB3-1'] }, { categories: ['IAB1', 'IAB3-1'] }],
    ['an empty set against null', { categories: [] }, { categories: null }],
    ['micros answered as a numeric string', { bid_amount_local_micro: 1_500_000 }, { bid_amount_local_micro: '1500000' }],
    ['a timestamp with milliseconds and an offset', { end_time: '2026-07-01T00:00:00Z' }, { end_time: '2026-07-01T02:00:00.000+02:00' }],
  ])('treats %s as equal', (_name, manifest, live) => {
    const s = appliedScenario();
    editDesired(s, A.lineItem, withAttributes(manifest));
    editLive(s, 'l1', (r) => ({ ...r, ...live }));
    expect(diffOf(s, A.lineItem)).toMatchObject({ action: 'noop', changes: [] });
  });

  it('compares a targeting value answered as a number with its string', () => {
    const s = appliedScenario();
    s.resources.push(desired('campaigns.summer.line_items.us.targeting["PLATFORM:0"]', { targeting_type: 'PLATFORM', targeting_value: '0' }));
    s.entries['campaigns.summer.line_items.us.targeting["PLATFORM:0"]'] = { id: 't2' };
    s.records.push(['targeting_criterion', { id: 't2', line_item_id: 'l1', targeting_type: 'PLATFORM', targeting_value: 0, operator_type: 'EQ', deleted: false }]);
    expect(diffOf(s, 'campaigns.summer.line_items.us.targeting["PLATFORM:0"]').action).toBe('noop');
  });

  it('sees a changed set member, as an edit or as drift', () => {
    const s = appliedScenario();
    editDesired(s, A.lineItem, withAttributes({ categories: ['IAB1', 'IAB2'] }));
    editLive(s, 'l1', (r) => ({ ...r, categories: ['IAB3', 'IAB2'] }));
    expect(diffOf(s, A.lineItem).changes).toEqual([{ path: 'categories', before: ['IAB2', 'IAB3'], after: ['IAB1', 'IAB2'], origin: 'drift', forcesReplacement: false, applied: [] }]);
    s.entries[A.lineItem] = { id: 'l1', applied: { ...s.entries[A.lineItem]?.applied, categories: ['IAB2', 'IAB3'] } };
    expect(diffOf(s, A.lineItem).changes).toEqual([{ path: 'categories', before: ['IAB2', 'IAB3'], after: ['IAB1', 'IAB2'], origin: 'manifest', forcesReplacement: false }]);
  });
});

describe('ignore_changes', () => {
  it.each([
    ['the API field name', 'daily_budget_amount_local_micro'],
    ['the short money name', 'daily_budget'],
  ])('leaves an ignored field alone, named by %s, and plans its live value', (_name, ignored) => {
    const s = appliedScenario();
    editDesired(s, A.campaign, (r) => ({ ...r, attributes: { ...r.attributes, daily_budget_amount_local_micro: 60_000_000 }, lifecycle: { preventDestroy: false, ignoreChanges: [ignored] } }));
    editLive(s, 'c1', (r) => ({ ...r, daily_budget_amount_local_micro: 40_000_000 }));
    const change = diffOf(s, A.campaign);
    expect(change).toMatchObject({ action: 'noop', changes: [], drift: false });
    expect(change.after?.['daily_budget_amount_local_micro']).toBe(40_000_000);
  });

  it('still compares the fields that are not ignored', () => {
    const s = appliedScenario();
    editDesired(s, A.campaign, (r) => ({ ...r, attributes: { ...r.attributes, name: 'Winter' }, lifecycle: { preventDestroy: false, ignoreChanges: ['entity_status'] } }));
    editLive(s, 'c1', (r) => ({ ...r, entity_status: 'PAUSED' }));
    expect(diffOf(s, A.campaign).changes.map((c) => c.path)).toEqual(['name']);
  });
});

describe('values the service changes or keeps to itself', () => {
  it('accepts the timeline placement the service adds to a PROMOTED_ACCOUNT line item', () => {
    const s = appliedScenario();
    editDesired(s, A.lineItem, withAttributes({ product_type: 'PROMOTED_ACCOUNT', placements: ['SERVICE_SEARCH'] }));
    editLive(s, 'l1', (r) => ({ ...r, product_type: 'PROMOTED_ACCOUNT', placements: ['SERVICE_SEARCH', 'SERVICE_TIMELINE'] }));
    expect(diffOf(s, A.lineItem).action).toBe('noop');
    editLive(s, 'l1', (r) => ({ ...r, product_type: 'PROMOTED_TWEETS' }));
    expect(diffOf(s, A.lineItem).action).toBe('replace');
  });

  it('does not compare the post id of a promoted post, which may be a promoted-only repost', () => {
    const s = appliedScenario();
    editLive(s, 'p1', (r) => ({ ...r, tweet_id: '1999999999999999999' }));
    const change = diffOf(s, A.post);
    expect(change).toMatchObject({ action: 'noop', before: { tweet_id: '1999999999999999999' }, after: { tweet_id: '1346184843436720128' } });
  });

  it('accepts a null landing URL on a pre-roll media creative', () => {
    const text = 'campaigns.summer.line_items.us.media_creatives.m1';
    const s = appliedScenario();
    s.resources.push(desired(text, { account_media_id: 'm1', landing_url: 'https://example.com' }));
    s.entries[text] = { id: 'mc1' };
    s.records.push(['media_creative', { id: 'mc1', line_item_id: 'l1', account_media_id: 'm1', landing_url: null, creative_type: 'PREROLL', deleted: false }]);
    expect(diffOf(s, text).action).toBe('noop');
    editLive(s, 'mc1', (r) => ({ ...r, creative_type: 'BANNER' }));
    expect(diffOf(s, text)).toMatchObject({ action: 'replace', changes: [{ path: 'landing_url', forcesReplacement: true }] });
  });

  it('compares a field the API never answers (audience_expansion) with the applied value', () => {
    const s = appliedScenario();
    editDesired(s, A.lineItem, withAttributes({ audience_expansion: 'BROAD' }));
    expect(diffOf(s, A.lineItem).changes).toEqual([{ path: 'audience_expansion', before: null, after: 'BROAD', origin: 'manifest', forcesReplacement: false }]);
    const applied = s.entries[A.lineItem]?.applied ?? {};
    s.entries[A.lineItem] = { id: 'l1', applied: { ...applied, audience_expansion: 'BROAD' } };
    expect(diffOf(s, A.lineItem).action).toBe('noop');
  });

  it('compares industry_type with the applied value when the account record leaves it out', () => {
    const s = appliedScenario();
    s.resources.unshift(desired('account', { name: 'Acme', industry_type: 'RETAIL' }, { importId: '18ce54d4x5t' }));
    editLive(s, '18ce54d4x5t', (r) => {
      const { industry_type: _left, ...rest } = r;
      return rest;
    });
    s.entries['account'] = { id: '18ce54d4x5t', applied: { name: 'Acme', industry_type: 'RETAIL' } };
    expect(diffOf(s, 'account').action).toBe('noop');
    s.entries['account'] = { id: '18ce54d4x5t', applied: { name: 'Acme', industry_type: 'MEDIA' } };
    expect(diffOf(s, 'account').changes).toEqual([{ path: 'industry_type', before: 'MEDIA', after: 'RETAIL', origin: 'manifest', forcesReplacement: false }]);
  });
});

describe('currency', () => {
  it('takes the currency of the instrument, read live, for the campaign and its line items', () => {
    const s = appliedScenario();
    const result = diffResources(planInput(s.resources, liveAccount(s.records, { currencies: { fi1: 'GBP' } }), accountState(s.entries)));
    expect(changeAt(result.value, A.campaign).currency).toBe('GBP');
    expect(changeAt(result.value, A.lineItem).currency).toBe('GBP');
  });

  it('falls back to the record and then to USD', () => {
    const input = planInput([], liveAccount([liveLineItem('l9', 'c9', { funding_instrument_id: 'unknown', currency: 'CAD' })]), accountState({ 'campaigns.gone.line_items.x': { id: 'l9' } }));
    expect(changeAt(diffResources(input).value, 'campaigns.gone.line_items.x').currency).toBe('CAD');
    const bare = planInput([desired('campaigns.raw', { name: 'Raw', funding_instrument_id: 'elsewhere' })], liveAccount([]), accountState({}));
    expect(changeAt(diffResources(bare).value, 'campaigns.raw').currency).toBe('USD');
  });
});
