/**
 * Golden plans: plans built in code rendered as text, Markdown and JSON and compared byte for byte
 * with test/render/golden/<case>/plan.{txt,md,json}. `UPDATE_GOLDEN=1 npx vitest run test/render`
 * rewrites the files; without it a missing or different file fails the test.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/plan/types.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { planToDocument } from '../../src/render/plan-document.js';
import { renderPlan } from '../../src/render/render.js';
import { renderText } from '../../src/render/text.js';
import { accountPlan, attr, change, plan, spend } from './plan-builder.js';

const update = process.env['UPDATE_GOLDEN'] === '1';
const root = new URL('./golden/', import.meta.url);
const source = 'version: 1\naccount:\n  id: 18ce54d4x5t\ncampaigns:\n  summer_sale:\n    daily_budget: "75.00"\n  spring:\n    lifecycle:\n      prevent_destroy: true\n';
const sources = new Map([['accounts/acme.yaml', source]]);

const ACCOUNT = { account: '18ce54d4x5t', accountId: '18ce54d4x5t', endpoint: 'sandbox' };

const cases: Record<string, Plan> = {
  'no-changes': plan([accountPlan([change('account', 'noop', { id: '18ce54d4x5t', before: { name: 'Acme' }, after: { name: 'Acme' } }), change('campaigns.summer_sale', 'noop', { id: 'c1', before: { name: 'Summer' }, after: { name: 'Summer' } })], { ...ACCOUNT, requests: { reads: 3 } })]),
  'create-everything': plan([
    accountPlan(
      [
        change('campaigns.summer_sale', 'create', { reason: 'new', currency: 'USD', after: { name: 'Summer sale', funding_instrument_id: 'fi1', daily_budget_amount_local_micro: 50_000_000, total_budget_amount_local_micro: 1_000_000_000, entity_status: 'PAUSED' } }),
        change('campaigns.summer_sale.line_items.us', 'create', { reason: 'new', currency: 'USD', after: { name: 'US', campaign_id: { $ref: 'campaigns.summer_sale' }, product_type: 'PROMOTED_TWEETS', objective: 'WEBSITE_CLICKS', placements: ['ALL_ON_TWITTER'], bid_amount_local_micro: 1_234_567 } }),
        change('campaigns.summer_sale.line_items.us.targeting["LOCATION:96683cc9126741d1"]', 'create', { reason: 'new', after: { line_item_id: { $ref: 'campaigns.summer_sale.line_items.us' }, targeting_type: 'LOCATION', targeting_value: '96683cc9126741d1', operator_type: 'EQ' } }),
        change('campaigns.summer_sale.line_items.us.promoted_posts["1346184843436720128"]', 'create', { reason: 'new', after: { line_item_id: { $ref: 'campaigns.summer_sale.line_items.us' }, tweet_id: '1346184843436720128' } }),
      ],
      { ...ACCOUNT, requests: { reads: 2, writes: 4, batches: 2 }, spend: [spend('USD', 50_000_000, 1_000_000_000)] },
    ),
  ]),
  'drift-edit-replace-delete': plan([
    accountPlan(
      [
        change('campaigns.summer_sale', 'update', { id: 'c1', currency: 'USD', changes: [attr('daily_budget_amount_local_micro', 50_000_000, 75_000_000), attr('entity_status', 'PAUSED', 'ACTIVE', { drift: true })] }, { name: 'Summer sale', funding_instrument_id: 'fi1', total_budget_amount_local_micro: 1_000_000_000 }),
        change('campaigns.summer_sale.line_items.eu', 'replace', { id: 'li2', reason: 'replace_field', currency: 'EUR', changes: [attr('objective', 'WEBSITE_CLICKS', 'ENGAGEMENTS', { forces: true }), attr('bid_amount_local_micro', 2_000_000, 1_500_000)] }, { name: 'EU', campaign_id: 'c1' }),
        change('campaigns.old', 'delete', { id: 'c3', reason: 'removed', currency: 'USD', before: { name: 'Old', daily_budget_amount_local_micro: 20_000_000 } }),
        change('campaigns.winter', 'create', { id: 'c4', reason: 'deleted_outside', currency: 'USD', after: { name: 'Winter', daily_budget_amount_local_micro: 5_000_000 } }),
      ],
      { ...ACCOUNT, requests: { reads: 4, writes: 4, batches: 3 }, spend: [spend('USD', -10_000_000, 0), spend('EUR', 0, 0)] },
    ),
  ]),
  'two-accounts-with-errors': plan(
    [
      accountPlan([change('campaigns.spring', 'delete', { id: 'c9', reason: 'removed', protected: true, before: { name: 'Spring' } })], { account: 'accounts/acme.yaml', accountId: '18ce54d4x5t', endpoint: 'production', requests: { reads: 2, writes: 1 } }),
      accountPlan([], { account: 'gq1b2', accountId: 'gq1b2', endpoint: 'local', requests: { reads: 1 } }),
    ],
    {
      diagnostics: [
        {
          severity: 'error',
          code: 'prevent-destroy',
          message: 'campaigns.spring has lifecycle.prevent_destroy, so it cannot be destroyed',
          range: { file: 'accounts/acme.yaml', start: { line: 9, column: 24, offset: 138 }, end: { line: 9, column: 28, offset: 142 } },
        },
      ],
    },
  ),
};

function check(file: URL, actual: string): void {
  if (update) {
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`${file.pathname} is missing; run UPDATE_GOLDEN=1 npx vitest run test/render`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

describe('golden plans', () => {
  it.each(Object.keys(cases))('%s', (name) => {
    const p = cases[name];
    if (p === undefined) throw new Error(`no case ${name}`);
    const dir = new URL(`${name}/`, root);
    if (update) mkdirSync(dir, { recursive: true });
    check(new URL('plan.txt', dir), renderPlan(p, 'text', { sources }));
    check(new URL('plan.md', dir), renderPlan(p, 'markdown', { sources }));
    check(new URL('plan.json', dir), renderPlan(p, 'json'));
  });
});

describe('the document people are shown', () => {
  // no-ops beside actions: plain ones (left out), one that drifted and one that releases an object (kept)
  const mixed = plan([
    accountPlan(
      [
        change('campaigns.summer_sale', 'noop', { id: 'c1', before: { name: 'Summer' }, after: { name: 'Summer' } }),
        change('campaigns.winter', 'noop', { id: 'c2', before: { name: 'Winter' }, after: { name: 'Winter' }, changes: [attr('entity_status', 'PAUSED', 'ACTIVE', { drift: true })] }),
        change('funding_instruments.main', 'noop', { id: 'fi1', reason: 'released', before: { name: 'Card' }, after: null }),
        change('campaigns.spring', 'update', { id: 'c3', changes: [attr('name', 'A', 'B')] }),
      ],
      ACCOUNT,
    ),
  ]);
  it.each(Object.entries({ ...cases, mixed }))('%s: text and Markdown from the shown changes equal those from every change', (_, p) => {
    const full = planToDocument(p);
    const shown = planToDocument(p, { shownOnly: true });
    expect(renderText(shown, { color: true, sources })).toBe(renderText(full, { color: true, sources }));
    expect(renderMarkdown(shown, { sources })).toBe(renderMarkdown(full, { sources }));
    expect(shown.summary).toEqual(full.summary);
  });
  it('leaves out the no-ops nobody is shown, and only those', () => {
    expect(planToDocument(cases['no-changes']!, { shownOnly: true }).resource_changes).toEqual([]);
    expect(planToDocument(mixed, { shownOnly: true }).resource_changes.map((c) => c.address)).toEqual(['campaigns.spring', 'campaigns.winter', 'funding_instruments.main']);
  });
});
