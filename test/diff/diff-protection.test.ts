import { describe, expect, it } from 'vitest';
import { diffResources } from '../../src/diff/diff.js';
import { formatAddress } from '../../src/manifest/address.js';
import { A, actions, appliedScenario, at, changeAt, desired, desiredAccount, editDesired, liveAccount, scenarioInput, accountState } from './builders.js';

describe('prevent_destroy', () => {
  it('fails a replacement of a resource whose manifest sets prevent_destroy, at the flag', () => {
    const s = appliedScenario();
    editDesired(s, A.lineItem, (r) => desired(A.lineItem, { ...r.attributes, objective: 'REACH' }, { preventDestroy: true, line: 12 }));
    const result = diffResources(scenarioInput(s));
    expect(changeAt(result.value, A.lineItem)).toMatchObject({ action: 'replace', protected: true });
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ severity: 'error', code: 'prevent-destroy', range: at(13, 20) });
    expect(result.diagnostics[0]?.message).toContain(`${A.lineItem} has lifecycle.prevent_destroy set`);
  });

  it('keeps the protection recorded in state after the resource and its block left the manifest', () => {
    const s = appliedScenario();
    s.resources = s.resources.filter((r) => formatAddress(r.address) !== A.post);
    s.entries[A.post] = { ...s.entries[A.post]!, protected: true };
    const result = diffResources(scenarioInput(s));
    expect(changeAt(result.value, A.post)).toMatchObject({ action: 'delete', reason: 'removed', protected: true });
    expect(result.diagnostics).toHaveLength(1);
    const [diagnostic] = result.diagnostics;
    expect(diagnostic).toMatchObject({ severity: 'error', code: 'prevent-destroy' });
    expect(diagnostic).not.toHaveProperty('range');
    expect(diagnostic?.message).toContain(A.post);
    expect(diagnostic?.message).toContain('recorded in state');
  });

  it('keeps the protection recorded in state when only the block was removed, pointing at the resource', () => {
    const s = appliedScenario();
    s.entries[A.lineItem] = { ...s.entries[A.lineItem]!, protected: true };
    editDesired(s, A.lineItem, (r) => ({ ...r, attributes: { ...r.attributes, product_type: 'MEDIA' } }));
    const result = diffResources(scenarioInput(s));
    expect(changeAt(result.value, A.lineItem)).toMatchObject({ action: 'replace', protected: true });
    expect(result.diagnostics.map((d) => [d.code, d.range])).toEqual([['prevent-destroy', at(12)]]);
  });

  it('lifts the protection when the manifest turns it off explicitly', () => {
    const s = appliedScenario();
    s.entries[A.lineItem] = { ...s.entries[A.lineItem]!, protected: true };
    editDesired(s, A.lineItem, (r) => desired(A.lineItem, { ...r.attributes, product_type: 'MEDIA' }, { preventDestroy: false }));
    const result = diffResources(scenarioInput(s));
    expect(changeAt(result.value, A.lineItem)).toMatchObject({ action: 'replace', protected: false });
    expect(result.diagnostics).toEqual([]);
  });

  it('marks unchanged protected resources so apply keeps recording the protection', () => {
    const s = appliedScenario();
    editDesired(s, A.campaign, (r) => desired(A.campaign, r.attributes, { preventDestroy: true, references: { funding_instrument_id: A.fi } }));
    const result = diffResources(scenarioInput(s));
    expect(changeAt(result.value, A.campaign)).toMatchObject({ action: 'noop', protected: true });
    expect(result.diagnostics).toEqual([]);
  });

  it('does not fail on a protected resource that is already gone', () => {
    const s = appliedScenario();
    s.resources = s.resources.filter((r) => formatAddress(r.address) !== A.post);
    s.entries[A.post] = { ...s.entries[A.post]!, protected: true };
    s.records = s.records.filter(([, r]) => r['id'] !== 'p1');
    const result = diffResources(scenarioInput(s, { missing: ['p1'] }));
    expect(changeAt(result.value, A.post)).toMatchObject({ action: 'noop', reason: 'deleted_outside', protected: true });
    expect(result.diagnostics).toEqual([]);
  });
});

describe('destroy mode', () => {
  it('deletes every resource the state manages, forgets those already gone, and ignores unbound ones', () => {
    const s = appliedScenario();
    s.resources.push(desired('campaigns.unapplied', { name: 'Never applied' }));
    s.records = s.records.filter(([, r]) => r['id'] !== 't1');
    const result = diffResources({ ...scenarioInput(s, { missing: ['t1'] }), mode: 'destroy' });
    expect(result.diagnostics).toEqual([]);
    expect(actions(result.value)).toEqual({
      account: 'delete',
      [A.campaign]: 'delete',
      [A.lineItem]: 'delete',
      [A.category]: 'delete',
      [A.post]: 'delete',
      [A.criterion]: 'noop',
      [A.fi]: 'delete',
    });
    expect(changeAt(result.value, A.criterion).reason).toBe('deleted_outside');
    expect(changeAt(result.value, A.campaign)).toMatchObject({ after: null, id: 'c1', source: at(5), currency: 'USD' });
    expect(changeAt(result.value, A.campaign)).not.toHaveProperty('reason');
  });

  it('fails on protected resources, from the manifest and from state', () => {
    const s = appliedScenario();
    editDesired(s, A.campaign, (r) => desired(A.campaign, r.attributes, { preventDestroy: true, line: 5, references: { funding_instrument_id: A.fi } }));
    s.entries[A.post] = { ...s.entries[A.post]!, protected: true };
    const result = diffResources({ ...scenarioInput(s), mode: 'destroy' });
    expect(changeAt(result.value, A.campaign)).toMatchObject({ action: 'delete', protected: true });
    expect(result.diagnostics.map((d) => [d.code, d.range])).toEqual([
      ['prevent-destroy', at(6, 20)],
      ['prevent-destroy', at(21)],
    ]);
  });

  it('warns about and skips state entries it cannot read', () => {
    const state = accountState({});
    state.resources['campaigns..bad'] = { kind: 'campaign', id: 'x1', applied: {} };
    state.resources['campaigns.odd'] = { kind: 'gadget', id: 'x2', applied: {} };
    const result = diffResources({ desired: desiredAccount([]), live: liveAccount([]), state, mode: 'destroy' });
    expect(result.value).toEqual([]);
    expect(result.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ['warning', 'state-address'],
      ['warning', 'state-kind'],
    ]);
  });
});
