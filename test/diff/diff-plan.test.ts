import { describe, expect, it } from 'vitest';
import { attributeChanges } from '../../src/diff/attribute-changes.js';
import { diffResources } from '../../src/diff/diff.js';
import { formatAddress } from '../../src/manifest/address.js';
import {
  A,
  ACCOUNT_KEY,
  accountState,
  actions,
  appliedScenario,
  changeAt,
  desired,
  desiredAccount,
  editDesired,
  editLive,
  liveAccount,
  planInput,
  scenarioInput,
} from './builders.js';

describe('diffResources: create everything', () => {
  const resources = [
    desired('funding_instruments.card', { type: 'CREDIT_CARD', currency: 'EUR', start_time: '2026-01-01T00:00:00+01:00' }),
    desired(A.campaign, { name: 'Summer', daily_budget_amount_local_micro: 50_000_000 }, { references: { funding_instrument_id: 'funding_instruments.card' } }),
    desired(A.lineItem, { name: 'US', product_type: 'PROMOTED_TWEETS', objective: 'ENGAGEMENTS', placements: ['SERVICE_TIMELINE', 'PUBLISHER_NETWORK'] }),
    desired(A.criterion, { targeting_type: 'BROAD_KEYWORD', targeting_value: 'sunscreen' }),
    desired(A.post, { tweet_id: '1346184843436720128' }),
  ];
  const result = diffResources({ desired: desiredAccount(resources, null), live: liveAccount([], { accountId: null }), state: accountState({}, true), mode: 'plan' });

  it('creates every resource, reason new, sorted by address', () => {
    expect(result.diagnostics).toEqual([]);
    expect(result.value?.map((c) => [formatAddress(c.address), c.action, c.reason])).toEqual([
      ['account', 'create', 'new'],
      [A.campaign, 'create', 'new'],
      [A.lineItem, 'create', 'new'],
      [A.post, 'create', 'new'],
      [A.criterion, 'create', 'new'],
      ['funding_instruments.card', 'create', 'new'],
    ]);
  });

  it('refers to parents and instruments that are yet to be created by UnknownRef', () => {
    expect(changeAt(result.value, A.campaign).after?.['funding_instrument_id']).toEqual({ $ref: 'funding_instruments.card' });
    expect(changeAt(result.value, A.lineItem).after?.['campaign_id']).toEqual({ $ref: A.campaign });
    expect(changeAt(result.value, A.criterion).after?.['line_item_id']).toEqual({ $ref: A.lineItem });
  });

  it('fills in the API defaults, normalises values, and lists every attribute as a change', () => {
    const campaign = changeAt(result.value, A.campaign);
    expect(campaign.after).toMatchObject({ budget_optimization: 'CAMPAIGN', standard_delivery: true, entity_status: 'ACTIVE' });
    expect(campaign.before).toBeNull();
    // a create holds no attribute changes of its own: they are derived from its after when listed
    expect(campaign.changes).toEqual([]);
    const listed = attributeChanges(campaign);
    expect(listed.map((c) => c.path)).toEqual(Object.keys(campaign.after ?? {}));
    expect(listed.every((c) => c.before === undefined && c.after === campaign.after?.[c.path] && c.origin === 'manifest' && !c.forcesReplacement)).toBe(true);
    expect(changeAt(result.value, A.lineItem).after?.['placements']).toEqual(['PUBLISHER_NETWORK', 'SERVICE_TIMELINE']);
    expect(changeAt(result.value, A.criterion).after?.['operator_type']).toBe('EQ');
    expect(changeAt(result.value, 'funding_instruments.card').after?.['start_time']).toBe('2025-12-31T23:00:00Z');
  });

  it('takes the currency of a sandbox-created instrument from its manifest entry', () => {
    expect(changeAt(result.value, A.campaign).currency).toBe('EUR');
    expect(changeAt(result.value, A.lineItem).currency).toBe('EUR');
    expect(changeAt(result.value, A.criterion).currency).toBeUndefined();
  });
});

describe('diffResources: bound resources', () => {
  it('reports no changes when manifest, live and state agree', () => {
    const result = diffResources(scenarioInput(appliedScenario()));
    expect(result.diagnostics).toEqual([]);
    expect(new Set(result.value?.map((c) => c.action))).toEqual(new Set(['noop']));
    expect(result.value?.some((c) => c.drift)).toBe(false);
    expect(changeAt(result.value, A.campaign)).toMatchObject({ id: 'c1', currency: 'USD', changes: [] });
    expect(changeAt(result.value, A.campaign)).not.toHaveProperty('reason');
    expect(changeAt(result.value, A.lineItem).after?.['campaign_id']).toBe('c1');
  });

  it('shows a field changed outside adsctl as drift', () => {
    const s = appliedScenario();
    editLive(s, 'c1', (r) => ({ ...r, name: 'Renamed by hand' }));
    const change = changeAt(diffResources(scenarioInput(s)).value, A.campaign);
    expect(change).toMatchObject({ action: 'update', drift: true });
    expect(change.changes).toEqual([{ path: 'name', before: 'Renamed by hand', after: 'Summer', origin: 'drift', forcesReplacement: false }]);
  });

  it('shows a manifest edit and drift on the same object with their own origins', () => {
    const s = appliedScenario();
    editDesired(s, A.campaign, (r) => ({ ...r, attributes: { ...r.attributes, daily_budget_amount_local_micro: 75_000_000 } }));
    editLive(s, 'c1', (r) => ({ ...r, name: 'Renamed by hand' }));
    const change = changeAt(diffResources(scenarioInput(s)).value, A.campaign);
    expect(change.action).toBe('update');
    expect(change.drift).toBe(true);
    expect(change.changes.map((c) => [c.path, c.before, c.after, c.origin])).toEqual([
      ['name', 'Renamed by hand', 'Summer', 'drift'],
      ['daily_budget_amount_local_micro', 50_000_000, 75_000_000, 'manifest'],
    ]);
  });

  it('keeps the object when the state was moved to the renamed address', () => {
    const s = appliedScenario();
    const renamed = 'campaigns.summer.line_items.us_and_canada';
    s.resources = s.resources.filter((r) => r.address.steps.length < 3).map((r) => (formatAddress(r.address) === A.lineItem ? desired(renamed, r.attributes) : r));
    const { [A.lineItem]: moved, ...rest } = s.entries;
    s.entries = Object.fromEntries(Object.entries(rest).filter(([text]) => !text.startsWith(`${A.lineItem}.`)));
    s.entries[renamed] = moved!;
    s.records = s.records.filter(([kind]) => !['targeting_criterion', 'promoted_post', 'line_item_curated_category'].includes(kind));
    const result = diffResources(scenarioInput(s));
    expect(actions(result.value)).toEqual({ account: 'noop', [A.fi]: 'noop', [A.campaign]: 'noop', [renamed]: 'noop' });
    expect(changeAt(result.value, renamed).id).toBe('l1');
  });

  it('updates the account name and binds the account by its id', () => {
    const s = appliedScenario();
    editLive(s, ACCOUNT_KEY, (r) => ({ ...r, name: 'Acme Inc' }));
    const change = changeAt(diffResources(scenarioInput(s)).value, 'account');
    expect(change).toMatchObject({ action: 'update', id: ACCOUNT_KEY, drift: true });
  });
});

describe('diffResources: replacement', () => {
  it('replaces a line item whose objective changed, marking the forcing field', () => {
    const s = appliedScenario();
    editDesired(s, A.lineItem, (r) => ({ ...r, attributes: { ...r.attributes, objective: 'REACH', name: 'US reach' } }));
    const result = diffResources(scenarioInput(s));
    const change = changeAt(result.value, A.lineItem);
    expect(change).toMatchObject({ action: 'replace', reason: 'replace_field', id: 'l1' });
    expect(change.changes.map((c) => [c.path, c.forcesReplacement])).toEqual([
      ['name', false],
      ['objective', true],
    ]);
  });

  it.each([
    ['placements', { placements: ['SERVICE_TIMELINE'] }],
    ['product_type', { product_type: 'PROMOTED_ACCOUNT' }],
    ['standard_delivery', { standard_delivery: false }],
    ['primary_web_event_tag', { primary_web_event_tag: 'tag1' }],
  ])('replaces a line item when %s changes', (path, edit) => {
    const s = appliedScenario();
    editDesired(s, A.lineItem, (r) => ({ ...r, attributes: { ...r.attributes, ...edit } }));
    const change = changeAt(diffResources(scenarioInput(s)).value, A.lineItem);
    expect(change.action).toBe('replace');
    expect(change.changes.find((c) => c.path === path)?.forcesReplacement).toBe(true);
  });

  it('cascades a replacement to the children, which refer to the new parent by UnknownRef', () => {
    const s = appliedScenario();
    s.resources.push(desired('funding_instruments.other', {}, { importId: 'fi2' }));
    s.records.push(['funding_instrument', { id: 'fi2', type: 'CREDIT_CARD', currency: 'JPY', deleted: false }]);
    editDesired(s, A.campaign, (r) => desired(A.campaign, r.attributes, { references: { funding_instrument_id: 'funding_instruments.other' } }));
    const result = diffResources(planInput(s.resources, liveAccount(s.records, { currencies: { fi2: 'JPY' } }), accountState(s.entries)));
    expect(result.diagnostics).toEqual([]);
    expect(changeAt(result.value, A.campaign)).toMatchObject({ action: 'replace', reason: 'replace_field', currency: 'JPY' });
    for (const text of [A.lineItem, A.criterion, A.post]) {
      const child = changeAt(result.value, text);
      expect(child).toMatchObject({ action: 'replace', reason: 'replace_parent' });
      expect(child.changes.filter((c) => c.forcesReplacement).map((c) => c.after)).toEqual([{ $ref: text === A.lineItem ? A.campaign : A.lineItem }]);
    }
    expect(changeAt(result.value, A.lineItem).currency).toBe('JPY');
    const category = changeAt(result.value, A.category);
    expect(category).toMatchObject({ action: 'update', changes: [{ path: 'line_item_id', before: 'l1', after: { $ref: A.lineItem }, forcesReplacement: false }] });
  });

  it('replaces a sandbox-created funding instrument whose fields changed, but never one named by id', () => {
    const s = appliedScenario();
    editDesired(s, A.fi, (r) => ({ ...r, attributes: { currency: 'EUR' } }));
    expect(changeAt(diffResources(scenarioInput(s)).value, A.fi)).toMatchObject({ action: 'noop', changes: [] });
    editDesired(s, A.fi, () => desired(A.fi, { type: 'CREDIT_CARD', currency: 'EUR', start_time: '2026-01-01T00:00:00Z' }));
    const change = changeAt(diffResources(scenarioInput(s)).value, A.fi);
    expect(change.action).toBe('replace');
    expect(change.changes).toEqual([{ path: 'currency', before: 'USD', after: 'EUR', origin: 'manifest', forcesReplacement: true }]);
  });
});

describe('diffResources: removal and objects gone outside adsctl', () => {
  it('deletes a resource that left the manifest, with its live values as before', () => {
    const s = appliedScenario();
    s.resources = s.resources.filter((r) => formatAddress(r.address) !== A.post);
    const change = changeAt(diffResources(scenarioInput(s)).value, A.post);
    expect(change).toMatchObject({ action: 'delete', reason: 'removed', id: 'p1', after: null, protected: false });
    expect(change.before).toEqual({ line_item_id: 'l1', tweet_id: '1346184843436720128' });
    expect(change.changes.map((c) => [c.path, c.after])).toEqual([
      ['line_item_id', undefined],
      ['tweet_id', undefined],
    ]);
  });

  it('recreates a desired resource deleted outside adsctl and forgets an undesired one', () => {
    const s = appliedScenario();
    s.records = s.records.filter(([, r]) => r['id'] !== 'c1' && r['id'] !== 'p1');
    s.resources = s.resources.filter((r) => formatAddress(r.address) !== A.post);
    const result = diffResources(scenarioInput(s, { missing: ['c1', 'p1'] }));
    expect(changeAt(result.value, A.campaign)).toMatchObject({ action: 'create', reason: 'deleted_outside', drift: true, before: null });
    expect(changeAt(result.value, A.lineItem)).toMatchObject({ action: 'replace', reason: 'replace_parent' });
    expect(changeAt(result.value, A.post)).toMatchObject({ action: 'noop', reason: 'deleted_outside', drift: true, id: 'p1' });
  });

  it('treats an id absent from the live records as gone even when not listed as missing', () => {
    const s = appliedScenario();
    s.records = s.records.filter(([, r]) => r['id'] !== 't1');
    expect(changeAt(diffResources(scenarioInput(s)).value, A.criterion)).toMatchObject({ action: 'create', reason: 'deleted_outside' });
  });
});

describe('diffResources: import', () => {
  it('binds an import entry to its live object without a state entry', () => {
    const s = appliedScenario();
    const { [A.campaign]: _dropped, ...rest } = s.entries;
    s.entries = rest;
    editDesired(s, A.campaign, (r) => ({ ...r, importId: 'c1', attributeSources: { import: r.source } }));
    const result = diffResources(scenarioInput(s));
    expect(changeAt(result.value, A.campaign)).toMatchObject({ action: 'noop', reason: 'import', id: 'c1', drift: false });
    expect(changeAt(result.value, A.lineItem).after?.['campaign_id']).toBe('c1');
  });

  it('reports an import of an object the service does not have', () => {
    const s = appliedScenario();
    editDesired(s, A.fi, (r) => ({ ...r, importId: 'nope' }));
    const result = diffResources(scenarioInput(s));
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'import-not-found', range: s.resources[0]?.attributeSources['import'] })]);
    expect(result.diagnostics[0]?.message).toContain('nope');
  });

  it('adopts a feature the account already has, and creates one it lacks', () => {
    const input = planInput([desired('features.AGE_TARGETING', { feature_key: 'AGE_TARGETING' }), desired('features.DR_TAP', { feature_key: 'DR_TAP' })], liveAccount([['account_feature', { id: 'AGE_TARGETING', feature_key: 'AGE_TARGETING' }]]), accountState({}));
    const result = diffResources(input);
    expect(changeAt(result.value, 'features.AGE_TARGETING')).toMatchObject({ action: 'noop', reason: 'import', id: 'AGE_TARGETING' });
    expect(changeAt(result.value, 'features.DR_TAP')).toMatchObject({ action: 'create', reason: 'new' });
  });

  it('releases the old address when an import moves its object to a new one, instead of deleting it', () => {
    const s = appliedScenario();
    s.resources = s.resources.filter((r) => formatAddress(r.address) !== A.category);
    s.resources.push(desired('campaigns.summer.line_items.us.curated_categories.moved', { curated_category_id: 'cat1' }, { importId: 'k1' }));
    const result = diffResources(scenarioInput(s));
    expect(result.diagnostics).toEqual([]);
    expect(changeAt(result.value, A.category)).toMatchObject({ action: 'noop', reason: 'released', id: 'k1' });
    expect(changeAt(result.value, 'campaigns.summer.line_items.us.curated_categories.moved')).toMatchObject({ action: 'noop', reason: 'import', id: 'k1' });
  });

  it('refuses to bind one object to two desired resources', () => {
    const s = appliedScenario();
    s.resources.push(desired('campaigns.copy', { name: 'Summer' }, { importId: 'c1', references: { funding_instrument_id: A.fi } }));
    const result = diffResources(scenarioInput(s));
    expect(result.diagnostics.map((d) => d.code)).toEqual(['duplicate-binding']);
    expect(result.diagnostics[0]?.message).toContain('campaign c1');
  });
});

describe('diffResources: output order', () => {
  it('merges removals into address order whatever the order of the manifest and the state', () => {
    const s = appliedScenario();
    s.resources = [...s.resources].reverse().filter((r) => formatAddress(r.address) !== A.criterion);
    s.entries['campaigns.autumn'] = { id: 'c9' };
    s.entries['campaigns.aaa'] = { id: 'c8' };
    s.records.push(['campaign', { id: 'c9', name: 'Autumn', deleted: false }], ['campaign', { id: 'c8', name: 'A', deleted: false }]);
    const texts = diffResources(scenarioInput(s)).value?.map((c) => formatAddress(c.address)) ?? [];
    expect(texts).toEqual([...texts].sort());
    expect(texts).toEqual(['account', 'campaigns.aaa', 'campaigns.autumn', A.campaign, A.lineItem, A.category, A.post, A.criterion, A.fi]);
    const destroyed = diffResources({ ...scenarioInput(s), mode: 'destroy' }).value?.map((c) => formatAddress(c.address)) ?? [];
    expect(destroyed).toEqual(texts);
  });
});
