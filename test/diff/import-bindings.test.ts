/**
 * What `adsctl import` binds besides its object (src/diff/import-bindings.ts): the scope it
 * refreshes and diffs, and the state entries of the children the diff adopts.
 */
import { describe, expect, it } from 'vitest';
import { diffResources } from '../../src/diff/diff.js';
import { adoptedEntries, bindingProblems, importScope, scopedState } from '../../src/diff/import-bindings.js';
import { formatAddress } from '../../src/manifest/address.js';
import { A, accountState, appliedScenario, desired, desiredAccount, liveAccount, liveLineItem } from './builders.js';

const AUDIENCE = 'custom_audiences.retarget';
const AUDIENCE_CRITERION = `${A.lineItem}.targeting["CUSTOM_AUDIENCE:${AUDIENCE}"]`;

function scenario(): { account: ReturnType<typeof desiredAccount>; s: ReturnType<typeof appliedScenario> } {
  const s = appliedScenario();
  s.resources.push(desired('campaigns.other', { name: 'Other' }, { references: { funding_instrument_id: A.fi } }));
  s.resources.push(desired(AUDIENCE, { name: 'Retarget' }));
  s.resources.push(desired(AUDIENCE_CRITERION, { targeting_type: 'CUSTOM_AUDIENCE' }, { references: { targeting_value: AUDIENCE } }));
  s.records.push(['custom_audience', { id: 'aud1', name: 'Retarget', description: null, deleted: false }], ['targeting_criterion', { id: 't2', line_item_id: 'l1', targeting_type: 'CUSTOM_AUDIENCE', targeting_value: 'aud1', operator_type: 'EQ', deleted: false }]);
  return { account: desiredAccount(s.resources), s };
}

describe('importScope', () => {
  it('holds the imported resource with its id, all under it, and the parents and reference targets of those', () => {
    const scope = importScope(scenario().account, A.lineItem, 'l1');
    expect(scope.resources.map((r) => formatAddress(r.address)).sort()).toEqual(
      ['account', A.fi, A.campaign, A.lineItem, A.category, A.post, A.criterion, AUDIENCE_CRITERION, AUDIENCE].sort(),
    );
    expect(scope.resources.find((r) => formatAddress(r.address) === A.lineItem)?.importId).toBe('l1');
  });

  it('does not take an address that only starts like the imported one', () => {
    const { s } = scenario();
    s.resources.push(desired('campaigns.summer2', { name: 'Summer 2' }));
    const scope = importScope(desiredAccount(s.resources), A.campaign, 'c1');
    expect(scope.resources.map((r) => formatAddress(r.address))).not.toContain('campaigns.summer2');
  });
});

describe('adoptedEntries', () => {
  it('binds the children found live, with their live values of the fields the manifest writes, and not what the state already binds', () => {
    const { account, s } = scenario();
    const scope = importScope(account, A.campaign, 'c1');
    const state = scopedState(accountState({ account: s.entries['account']!, [A.fi]: s.entries[A.fi]!, [AUDIENCE]: { id: 'aud1' }, [A.post]: s.entries[A.post]!, 'campaigns.other': { id: 'c9' } }), scope);
    expect(Object.keys(state.resources).sort()).toEqual(['account', A.fi, A.post, AUDIENCE].sort());
    const live = liveAccount(s.records);
    const diff = diffResources({ desired: scope, live, state, mode: 'plan' });
    expect(bindingProblems(diff.diagnostics)).toEqual([]);
    const entries = adoptedEntries(diff.value ?? [], scope, live, state, A.campaign);
    expect(Object.keys(entries).sort()).toEqual([A.lineItem, A.category, A.criterion, AUDIENCE_CRITERION].sort());
    expect(entries[AUDIENCE_CRITERION]).toEqual({ kind: 'targeting_criterion', id: 't2', applied: { line_item_id: 'l1', targeting_type: 'CUSTOM_AUDIENCE', targeting_value: 'aud1', operator_type: 'EQ' } });
    expect(entries[A.lineItem]?.applied).not.toHaveProperty('entity_status');
  });

  it('reports a child that matches two live objects as a problem that stops the import', () => {
    const { account, s } = scenario();
    s.records.push(liveLineItem('l9', 'c1', { name: 'US' }));
    const scope = importScope(account, A.campaign, 'c1');
    const state = scopedState(accountState({ account: s.entries['account']!, [A.fi]: s.entries[A.fi]! }), scope);
    const diff = diffResources({ desired: scope, live: liveAccount(s.records), state, mode: 'plan' });
    expect(bindingProblems(diff.diagnostics).map((d) => d.code)).toEqual(['import-ambiguous']);
  });
});
