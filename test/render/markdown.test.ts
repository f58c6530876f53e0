/**
 * The pull-request comment: summary table, drift section, collapsible sections with diff fences,
 * and the hard cap under 60,000 characters with a note when the plan was cut.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import { MARKDOWN_LIMIT } from '../../src/render/markdown.js';
import { renderPlan } from '../../src/render/render.js';
import { accountPlan, attr, change, plan, spend } from './plan-builder.js';

const md = (p: ReturnType<typeof plan>): string => renderPlan(p, 'markdown');

/** A campaign with `lineItems` line items being created, each with a few attributes. */
function campaign(name: string, lineItems: number): ResourceChange[] {
  const items = Array.from({ length: lineItems }, (_, i) =>
    change(`campaigns.${name}.line_items.li_${String(i).padStart(5, '0')}`, 'create', {
      currency: 'USD',
      after: { name: `Line item ${i} of ${name}`, campaign_id: { $ref: `campaigns.${name}` }, bid_amount_local_micro: 1_000_000 + i, placements: ['ALL_ON_TWITTER'], objective: 'WEBSITE_CLICKS' },
    }),
  );
  return [change(`campaigns.${name}`, 'update', { currency: 'USD', changes: [attr('daily_budget_amount_local_micro', 10_000_000, 12_000_000)] }), ...items];
}

const shown = (out: string): number => (out.match(/^ {2}# .* will be /gm) ?? []).length;

describe('renderMarkdown', () => {
  it('starts with the outcome and a summary table per account, with a total row for several accounts', () => {
    const out = md(
      plan([
        accountPlan([change('campaigns.a', 'create', { after: { name: 'a' } }), change('campaigns.b', 'update', { changes: [attr('name', 'x', 'y', { drift: true })] })], { account: 'acme_prod', endpoint: 'production', requests: { reads: 2, writes: 2, batches: 1 }, spend: [spend('USD', 25_000_000, 0)] }),
        accountPlan([change('campaigns.c', 'delete')], { account: 'b|c', requests: { reads: 1 } }),
      ]),
    );
    expect(out).toContain(
      [
        '## adsctl plan',
        '',
        '**Plan: 1 to add, 1 to change, 1 to destroy.**',
        '',
        '| Account | Add | Change | Destroy | Drift | Spend |',
        '| --- | ---: | ---: | ---: | ---: | --- |',
        '| acme\\_prod (production) | 1 | 1 | 0 | 1 | +25.00 USD/day, 0.00 USD total |',
        '| b\\|c (local) | 0 | 0 | 1 | 0 | no change |',
        '| **Total** | 1 | 1 | 1 | 1 | +25.00 USD/day, 0.00 USD total |',
        '',
        'Requests: 3 reads made, 2 writes planned (1 batch). Spend: +25.00 USD/day, 0.00 USD total.',
      ].join('\n'),
    );
  });

  it('puts the drift section first and each account in a collapsible diff fence with symbols in column one', () => {
    const out = md(plan([accountPlan([change('campaigns.a', 'create', { after: { name: 'a' } }), change('campaigns.b', 'update', { changes: [attr('name', 'x', 'y', { drift: true })] }), change('campaigns.c', 'delete', { before: { name: 'c' } })], { account: 'k' })]));
    const drift = out.indexOf('### Objects changed outside adsctl');
    const details = out.indexOf('<details><summary>Account k on local: 1 to add, 1 to change, 1 to destroy</summary>');
    expect(drift).toBeGreaterThan(0);
    expect(details).toBeGreaterThan(drift);
    const section = out.slice(details);
    expect(section).toContain('```diff\n  # campaigns.a will be created\n+   campaign "a" {\n+       id   = (known after apply)\n+       name = "a"\n    }\n');
    expect(section).toContain('!   campaign "b" {\n');
    expect(section).toContain('!       name = "x" -> "y" (changed outside adsctl)\n');
    expect(section).toContain('-   campaign "c" {\n-       id   = "id-c" -> null\n');
    expect(out.endsWith('</details>\n')).toBe(true);
    expect(out).not.toContain('was cut');
  });

  it('says No changes when there are none', () => {
    expect(md(plan([accountPlan([])]))).toContain('**No changes. The live accounts match the manifests.**');
  });

  it('escapes HTML in summaries and lengthens fences around backticks', () => {
    const out = md(plan([accountPlan([change('campaigns.a', 'create', { after: { name: 'has ``` fence' } })], { account: 'a<b>&c' })]));
    expect(out).toContain('<summary>Account a&lt;b&gt;&amp;c on local:');
    expect(out).toContain('````diff\n');
    expect(out).toContain('\n````\n');
  });

  it('splits a large account into a section per campaign', () => {
    const out = md(plan([accountPlan([...campaign('alpha', 40), ...campaign('beta', 40), change('funding_instruments.main', 'update', { changes: [attr('name', 'a', 'b')] })], { account: 'k' })]));
    expect(out).toContain('<details><summary>Account k on local: 80 to add, 3 to change, 0 to destroy</summary>\n\n<details><summary>campaigns.alpha: 40 to add, 1 to change, 0 to destroy</summary>');
    expect(out).toContain('<details><summary>campaigns.beta: 40 to add, 1 to change, 0 to destroy</summary>');
    expect(out).toContain('<details><summary>funding_instruments: 0 to add, 1 to change, 0 to destroy</summary>');
    expect(shown(out)).toBe(83);
  });

  it('stays under 60,000 characters for thousands of changes, keeping the summary and saying what was left out', () => {
    const changes = [...campaign('alpha', 1500), ...campaign('beta', 1500), ...campaign('gamma', 1500)];
    const out = md(plan([accountPlan(changes, { account: 'big', requests: { reads: 30, writes: 120, batches: 120 } })]));
    expect(out.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(out.length).toBeGreaterThan(MARKDOWN_LIMIT - 2_000);
    expect(out).toContain('**Plan: 4500 to add, 3 to change, 0 to destroy.**');
    expect(out).toContain('| big (local) | 4500 | 3 | 0 | 0 | no change |');
    const visible = shown(out);
    expect(visible).toBeGreaterThan(50);
    expect(out).toContain(`**This comment was cut to stay under 60000 characters:** ${4503 - visible} of 4503 resources were left out.`);
    expect(out.trimEnd().endsWith('`adsctl show PLANFILE` renders the complete plan from the file saved with `plan --out` (in CI, the plan artifact).')).toBe(true);
    expect(out.match(/<details>/g)?.length).toBe(out.match(/<\/details>/g)?.length);
    expect((out.match(/^`{3,}/gm)?.length ?? 0) % 2).toBe(0);
  });

  it('cuts a single huge campaign inside its fence, and counts left-out drift too', () => {
    const drifted = Array.from({ length: 2000 }, (_, i) => change(`campaigns.c${String(i).padStart(4, '0')}`, 'update', { changes: [attr('entity_status', 'PAUSED', 'ACTIVE', { drift: true })] }));
    const out = md(plan([accountPlan(drifted, { account: 'k' })]));
    expect(out.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(out).toContain('of 2000 resources were left out. Also left out: ');
    expect(out).toMatch(/Also left out: \d+ of the objects changed outside adsctl\./);
  });

  it('stays under the cap with thousands of accounts, shortening the summary table', () => {
    const accounts = Array.from({ length: 3000 }, (_, i) => accountPlan([change('campaigns.a', 'create', { after: { name: 'a' } })], { account: `account-${String(i).padStart(4, '0')}.yaml` }));
    const out = md(plan(accounts));
    expect(out.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(out).toMatch(/\| and \d+ more accounts, in the full plan artifact \| \| \| \| \| \|\n\| \*\*Total\*\* \| 3000 \| 0 \| 0 \| 0 \| no change \|/);
    expect(out).toMatch(/\d+ of 3000 resources were left out/);
  });
});
