/**
 * The `Not managed by adsctl` section (src/render/unmanaged.ts) in every rendering of a plan, and
 * the drift `plan --refresh-only --detailed-exitcode` exits 2 for (src/render/refresh-only.ts).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { UnmanagedObject } from '../../src/diff/unmanaged.js';
import { hasDrift, renderRefreshOnly } from '../../src/render/refresh-only.js';
import { renderPlan } from '../../src/render/render.js';
import { accountPlan, change, plan } from './plan-builder.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

const campaign = (isNew: boolean): UnmanagedObject => ({ kind: 'campaign', id: 'c9', name: 'Black Friday "by hand"', status: 'ACTIVE', parentId: null, parentAddress: null, dailyBudgetMicros: 500_000_000, serves: true, currency: 'USD', new: isNew });
const lineItem: UnmanagedObject = { kind: 'line_item', id: 'l9', name: 'Extra', status: 'PAUSED', parentId: 'c1', parentAddress: 'campaigns.a', dailyBudgetMicros: 12_345_678, serves: false, currency: 'EUR', new: false };
/** ACTIVE under a paused campaign: dormant. */
const dormant: UnmanagedObject = { ...lineItem, id: 'l8', name: 'Dormant', status: 'ACTIVE', dailyBudgetMicros: 7_000_000, currency: 'USD' };

const withUnmanaged = (unmanaged: UnmanagedObject[] | undefined) =>
  plan([{ ...accountPlan([change('campaigns.a', 'noop')], { account: '18ce54d4x5t', accountId: '18ce54d4x5t' }), ...(unmanaged === undefined ? {} : { unmanaged }) }]);

describe('objects not managed by adsctl in a plan', () => {
  it.each([
    { name: 'none looked for', unmanaged: undefined, drift: false, section: false },
    { name: 'none found', unmanaged: [], drift: false, section: false },
    { name: 'only ones seen at the last apply', unmanaged: [campaign(false), lineItem], drift: false, section: true },
    { name: 'a new one', unmanaged: [campaign(true), lineItem], drift: true, section: true },
  ])('$name', ({ unmanaged, drift, section }) => {
    const p = withUnmanaged(unmanaged);
    expect(hasDrift(p)).toBe(drift);
    const json = JSON.parse(renderPlan(p, 'json')) as { unmanaged?: unknown[] };
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.unmanaged?.length ?? 0).toBe(unmanaged?.length ?? 0);
    for (const text of [renderPlan(p, 'text'), renderPlan(p, 'markdown'), renderRefreshOnly(p, 'text'), renderRefreshOnly(p, 'markdown')]) expect(text.includes('Not managed by adsctl')).toBe(section);
  });

  it('shows name, status and exact daily budget in its currency, new ones marked', () => {
    const p = withUnmanaged([campaign(true), lineItem]);
    const text = renderPlan(p, 'text');
    expect(text).toContain('  campaign "Black Friday \\"by hand\\"" (id c9): ACTIVE, serving, daily budget 500.00 USD, new since the last apply');
    expect(text).toContain('  line item "Extra" (id l9) in campaigns.a: PAUSED, daily budget 12.345678 EUR\n');
    expect(text).toContain('1 of these appeared since the last apply, outside adsctl: adopt them into a manifest with `adsctl generate` or `adsctl import`, or delete them.');
    const md = renderPlan(p, 'markdown');
    // the name as a JSON string, its backslashes escaped for Markdown
    expect(md).toContain('| 18ce54d4x5t (local) | campaign "Black Friday \\\\"by hand\\\\"" (id c9) | ACTIVE, serving | 500.00 USD | **new** |');
    expect(md).toContain('Spend not managed by adsctl (daily budgets of the ones that serve): 500.00 USD/day.');
    expect(renderRefreshOnly(p, 'text')).toMatch(/^Objects not managed by adsctl appeared since the last apply\./);
  });

  it('counts only what serves: an ACTIVE line item under a paused campaign is dormant', () => {
    const p = withUnmanaged([campaign(false), dormant]);
    expect(renderPlan(p, 'text')).toContain('  line item "Dormant" (id l8) in campaigns.a: ACTIVE, dormant, daily budget 7.00 USD\n');
    const md = renderPlan(p, 'markdown');
    expect(md).toContain('| ACTIVE, dormant | 7.00 USD |');
    expect(md).toContain('Spend not managed by adsctl (daily budgets of the ones that serve): 500.00 USD/day.');
    expect((JSON.parse(renderPlan(p, 'json')) as { unmanaged: Array<{ serving: boolean }> }).unmanaged.map((u) => u.serving)).toEqual([true, false]);
  });
});
