/**
 * Issue 9, point 10: `plan --refresh-only` reduces the finished plan to its drift. A change is
 * drift when an attribute moved outside adsctl or the object was deleted outside adsctl; the
 * reduced plan keeps only those, plans nothing for them, and has no steps, writes or spend.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import { parseAddress } from '../../src/manifest/address.js';
import type { Plan } from '../../src/plan/types.js';
import { hasDrift, isDrift, refreshOnlyPlan, renderRefreshOnly } from '../../src/render/refresh-only.js';

function change(address: string, action: ResourceChange['action'], drift: boolean, reason?: ResourceChange['reason']): ResourceChange {
  const parsed = parseAddress(address).value!;
  return {
    account: 'acct',
    address: parsed,
    kind: 'campaign',
    action,
    id: `id-${address}`,
    before: { name: 'live' },
    after: { name: 'wanted' },
    changes: [
      { path: 'name', before: 'live', after: 'wanted', origin: drift ? 'drift' : 'manifest', forcesReplacement: false },
      { path: 'daily_budget_amount_local_micro', before: 1, after: 2, origin: 'manifest', forcesReplacement: false },
    ],
    drift,
    protected: false,
    ...(reason === undefined ? {} : { reason }),
  };
}

const planOf = (changes: ResourceChange[]): Plan =>
  ({
    formatVersion: '2.1',
    mode: 'plan',
    diagnostics: [],
    accounts: [{ account: 'acct', endpoint: 'local', changes, layers: [[{ type: 'single', kind: 'campaign', action: 'update', operations: [] }]], requests: { reads: 4, writes: 2, batches: 1 }, spend: [{ currency: 'USD', dailyMicros: 1, totalMicros: 0 }], fingerprints: {}, implied: [], stateSerial: 3, serving: [] }],
  }) as unknown as Plan;

describe('isDrift', () => {
  it.each<[string, ResourceChange, boolean]>([
    ['an attribute changed outside adsctl', change('campaigns.a', 'update', true), true],
    ['deleted outside adsctl, recreated', change('campaigns.b', 'create', false, 'deleted_outside'), true],
    ['deleted outside adsctl, forgotten', change('campaigns.c', 'noop', false, 'deleted_outside'), true],
    ['a manifest edit', change('campaigns.d', 'update', false), false],
    ['a new resource', change('campaigns.e', 'create', false, 'new'), false],
    ['a removed resource', change('campaigns.f', 'delete', false, 'removed'), false],
  ])('%s: %s', (_, c, drift) => {
    expect(isDrift(c)).toBe(drift);
  });
});

describe('refreshOnlyPlan', () => {
  const plan = planOf([change('campaigns.a', 'update', true), change('campaigns.d', 'update', false), change('campaigns.b', 'create', false, 'deleted_outside')]);

  it('keeps the drift only, as no-ops with their drifted attributes, and plans nothing', () => {
    const reduced = refreshOnlyPlan(plan);
    const account = reduced.accounts[0]!;
    expect(account.changes.map((c) => [c.address.steps.map((s) => s.key).join('.'), c.action, c.changes.map((a) => a.path)])).toEqual([
      ['a', 'noop', ['name']],
      ['b', 'noop', []],
    ]);
    expect(account.layers).toEqual([]);
    expect(account.spend).toEqual([]);
    expect(account.requests).toEqual({ reads: 4, writes: 0, batches: 0 });
    expect(hasDrift(plan)).toBe(true);
    expect(hasDrift(planOf([change('campaigns.d', 'update', false)]))).toBe(false);
  });

  it('renders as text only what changed outside adsctl', () => {
    const text = renderRefreshOnly(plan, 'text');
    expect(text).toContain('Note: Objects have changed outside of adsctl');
    expect(text).toContain('# campaigns.a has changed');
    expect(text).toContain('# campaigns.b has been deleted');
    expect(text).not.toContain('campaigns.d');
    expect(text).not.toContain('daily_budget');
    expect(text).toMatch(/Requests: 4 reads made, 0 writes planned\.\n$/);
    expect(renderRefreshOnly(planOf([change('campaigns.d', 'update', false)]), 'text')).toMatch(/^No changes\. Nothing changed outside adsctl since the last apply\.\n/);
  });
});
