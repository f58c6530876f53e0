/**
 * Imports adopt children (issue 18): an import of a campaign or a line item binds the live
 * children the manifest declares under it, matched by identity, so that nothing is created twice
 * and nothing the manifest declares is removed as added outside adsctl.
 */
import { describe, expect, it } from 'vitest';
import { diffResources } from '../../src/diff/diff.js';
import type { ResourceChange } from '../../src/diff/types.js';
import { formatAddress } from '../../src/manifest/address.js';
import type { DesiredResource } from '../../src/manifest/types.js';
import {
  A,
  accountState,
  appliedScenario,
  changeAt,
  desired,
  liveAccount,
  liveCriterion,
  liveLineItem,
  planInput,
  type LiveRecord,
  type Scenario,
  type StateSpec,
} from './builders.js';

const AUDIENCE = 'custom_audiences.retarget';
const AUDIENCE_CRITERION = `${A.lineItem}.targeting["CUSTOM_AUDIENCE:${AUDIENCE}"]`;
const LOCATION = `${A.lineItem}.targeting["LOCATION:96683cc9126741d1"]`;

/** The applied scenario before any apply: the manifest imports `imports` (address → id) and the state knows only the account and the instrument. */
function importing(imports: Record<string, string>, change: (s: Scenario) => void = () => {}, bound: Record<string, StateSpec> = {}): { result: ReturnType<typeof diffResources>; s: Scenario } {
  const s = appliedScenario();
  change(s);
  s.resources = s.resources.map((r): DesiredResource => {
    const id = imports[formatAddress(r.address)];
    return id === undefined ? r : { ...r, importId: id, attributeSources: { ...r.attributeSources, import: r.source } };
  });
  const entries: Record<string, StateSpec> = { account: s.entries['account']!, [A.fi]: s.entries[A.fi]!, ...bound };
  return { result: diffResources(planInput(s.resources, liveAccount(s.records), accountState(entries))), s };
}

const summary = (changes: readonly ResourceChange[] | undefined): Array<[string, string, string | undefined, string | undefined]> =>
  (changes ?? []).filter((c) => c.kind !== 'account' && c.kind !== 'funding_instrument').map((c) => [formatAddress(c.address), c.action, c.reason, c.id]);

describe('an imported campaign adopts its line items and their children', () => {
  it('binds every declared child to its live object: nothing is created, nothing removed', () => {
    const { result } = importing({ [A.campaign]: 'c1' });
    expect(result.diagnostics).toEqual([]);
    expect(summary(result.value)).toEqual([
      [A.campaign, 'noop', 'import', 'c1'],
      [A.lineItem, 'noop', 'import', 'l1'],
      [A.category, 'noop', 'import', 'k1'],
      [A.post, 'noop', 'import', 'p1'],
      [A.criterion, 'noop', 'import', 't1'],
    ]);
    expect(changeAt(result.value, A.criterion).after?.['line_item_id']).toBe('l1');
  });

  it('adopts under an imported line item too', () => {
    const { result } = importing({ [A.lineItem]: 'l1' }, () => {}, { [A.campaign]: appliedScenario().entries[A.campaign]! });
    expect(result.diagnostics).toEqual([]);
    expect(changeAt(result.value, A.campaign)).toMatchObject({ action: 'noop', id: 'c1' });
    expect(changeAt(result.value, A.campaign).reason).toBeUndefined();
    expect(changeAt(result.value, A.lineItem)).toMatchObject({ action: 'noop', reason: 'import', id: 'l1' });
    expect(changeAt(result.value, A.criterion)).toMatchObject({ action: 'noop', reason: 'import', id: 't1' });
    expect(changeAt(result.value, A.post)).toMatchObject({ action: 'noop', reason: 'import', id: 'p1' });
  });

  it('matches a criterion that names an audience of the manifest by the audience id, and removes none of it', () => {
    const { result } = importing({ [A.campaign]: 'c1', [AUDIENCE]: 'aud1' }, (s) => {
      s.resources.push(desired(AUDIENCE, { name: 'Retarget' }));
      s.resources.push(desired(AUDIENCE_CRITERION, { targeting_type: 'CUSTOM_AUDIENCE' }, { references: { targeting_value: AUDIENCE } }));
      s.records.push(['custom_audience', { id: 'aud1', name: 'Retarget', description: null, deleted: false }], liveCriterion('t2', 'l1', 'CUSTOM_AUDIENCE', 'aud1'));
    });
    expect(result.diagnostics).toEqual([]);
    expect(changeAt(result.value, AUDIENCE_CRITERION)).toMatchObject({ action: 'noop', reason: 'import', id: 't2' });
    expect(result.value?.filter((c) => c.action !== 'noop')).toEqual([]);
  });

  it('plans the removal of a live child the manifest does not declare, as under any managed parent', () => {
    const { result } = importing({ [A.campaign]: 'c1' }, (s) => {
      s.records.push(liveCriterion('t3', 'l1', 'LOCATION', '96683cc9126741d1'));
    });
    expect(changeAt(result.value, LOCATION)).toMatchObject({ action: 'delete', reason: 'added_outside', id: 't3', drift: true });
  });

  it('creates a declared child nothing live matches: another name, another keyword', () => {
    const { result } = importing({ [A.campaign]: 'c1' }, (s) => {
      s.records = s.records.map(([kind, r]): LiveRecord => (r['id'] === 't1' ? [kind, { ...r, targeting_value: 'sunblock' }] : [kind, r]));
      s.records.push(liveLineItem('l2', 'c1', { name: 'Canada' }));
      s.resources.push(desired('campaigns.summer.line_items.ca', { name: 'CA', product_type: 'PROMOTED_TWEETS', objective: 'ENGAGEMENTS', placements: ['ALL_ON_SERVICE'], start_time: '2026-06-01T00:00:00Z' }));
    });
    expect(changeAt(result.value, A.criterion)).toMatchObject({ action: 'create', reason: 'new' });
    expect(changeAt(result.value, 'campaigns.summer.line_items.ca')).toMatchObject({ action: 'create', reason: 'new' });
    // the live keyword the manifest does not declare is the collection's to remove
    expect(changeAt(result.value, `${A.lineItem}.targeting["BROAD_KEYWORD:sunblock"]`)).toMatchObject({ action: 'delete', reason: 'added_outside' });
  });

  it('does not adopt a line item of the same name but another objective', () => {
    const { result } = importing({ [A.campaign]: 'c1' }, (s) => {
      s.records = s.records.map(([kind, r]): LiveRecord => (r['id'] === 'l1' ? [kind, { ...r, objective: 'WEBSITE_CLICKS' }] : [kind, r]));
    });
    expect(changeAt(result.value, A.lineItem)).toMatchObject({ action: 'create', reason: 'new' });
    expect(changeAt(result.value, A.criterion)).toMatchObject({ action: 'create', reason: 'new' });
  });

  it('refuses to guess between two live line items with the same identity', () => {
    const { result } = importing({ [A.campaign]: 'c1' }, (s) => {
      s.records.push(liveLineItem('l9', 'c1', { name: 'US' }));
    });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['import-ambiguous']);
    expect(result.diagnostics[0]?.message).toContain('l1, l9');
    expect(result.diagnostics[0]?.range).toEqual(changeAt(result.value, A.lineItem).source);
  });

  it('never adopts a live object another declared address already holds in state', () => {
    const renamed = `${A.lineItem}.curated_categories.renamed`;
    const { result } = importing(
      { [A.campaign]: 'c1' },
      (s) => s.resources.push(desired(renamed, { curated_category_id: 'cat1' })),
      { [renamed]: { id: 'k1', applied: { line_item_id: 'l1', curated_category_id: 'cat1' } } },
    );
    expect(changeAt(result.value, renamed)).toMatchObject({ action: 'noop', id: 'k1' });
    expect(changeAt(result.value, A.category)).toMatchObject({ action: 'create', reason: 'new' });
    expect(result.diagnostics).toEqual([]);
  });

  it('adopts nothing under a parent bound only by its state entry: adoption needs an import', () => {
    const s = appliedScenario();
    const { [A.lineItem]: _li, [A.criterion]: _c, [A.post]: _p, [A.category]: _k, ...entries } = s.entries;
    const result = diffResources(planInput(s.resources, liveAccount(s.records), accountState(entries)));
    expect(changeAt(result.value, A.lineItem)).toMatchObject({ action: 'create', reason: 'new' });
  });

  it('adopts under a campaign the plan replaces: the live children are replaced with it, not created beside it', () => {
    const { result } = importing({ [A.campaign]: 'c1' }, (s) => {
      s.records = s.records.map(([kind, r]): LiveRecord => (r['id'] === 'c1' ? [kind, { ...r, funding_instrument_id: 'fi9' }] : [kind, r]));
    });
    expect(changeAt(result.value, A.campaign)).toMatchObject({ action: 'replace' });
    expect(changeAt(result.value, A.lineItem)).toMatchObject({ action: 'replace', reason: 'replace_parent', id: 'l1' });
    expect(changeAt(result.value, A.criterion)).toMatchObject({ action: 'replace', reason: 'replace_parent', id: 't1' });
  });

  it('adopts under a line item the state binds below an imported campaign: the import order does not matter', () => {
    const s0 = appliedScenario();
    const { result } = importing({ [A.campaign]: 'c1' }, () => {}, { [A.lineItem]: s0.entries[A.lineItem]! });
    expect(result.diagnostics).toEqual([]);
    expect(changeAt(result.value, A.lineItem)).toMatchObject({ action: 'noop', id: 'l1' });
    expect(changeAt(result.value, A.criterion)).toMatchObject({ action: 'noop', reason: 'import', id: 't1' });
    expect(changeAt(result.value, A.post)).toMatchObject({ action: 'noop', reason: 'import', id: 'p1' });
  });

  it('leaves a binding in state alone: the state wins over adoption', () => {
    const s = appliedScenario();
    s.resources = s.resources.map((r) => (formatAddress(r.address) === A.campaign ? { ...r, importId: 'c1', attributeSources: { import: r.source } } : r));
    s.records.push(liveCriterion('t7', 'l1', 'BROAD_KEYWORD', 'sunscreen'));
    const result = diffResources(planInput(s.resources, liveAccount(s.records), accountState(s.entries)));
    expect(result.diagnostics).toEqual([]);
    expect(changeAt(result.value, A.criterion)).toMatchObject({ action: 'noop', id: 't1' });
  });
});
