/**
 * The text plan: Terraform's symbols, headers and footer, adsctl's drift section and markers,
 * money in currency units, diagnostics with their source lines, colour only when asked.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diag/diagnostic.js';
import { planToDocument } from '../../src/render/plan-document.js';
import { renderPlan } from '../../src/render/render.js';
import { renderText } from '../../src/render/text.js';
import { accountPlan, attr, change, plan, spend } from './plan-builder.js';

const text = (p: ReturnType<typeof plan>): string => renderPlan(p, 'text');

describe('renderText', () => {
  it('renders an in-place update with money in currency units, the footer and the requests line', () => {
    const p = plan([
      accountPlan(
        [change('campaigns.summer_sale', 'update', { id: '8f0tz', currency: 'USD', changes: [attr('daily_budget_amount_local_micro', 50_000_000, 75_000_000), attr('name', 'Old', 'New')] }, { entity_status: 'ACTIVE' })],
        { account: '18ce54d4x5t', accountId: '18ce54d4x5t', endpoint: 'sandbox', requests: { reads: 3, writes: 4, batches: 2 }, spend: [spend('USD', 25_000_000, 500_000_000)] },
      ),
    ]);
    expect(text(p)).toBe(
      [
        'Resource actions are indicated with the following symbols:',
        '  ~ update in-place',
        '',
        'adsctl will perform the following actions:',
        '',
        'Account 18ce54d4x5t on sandbox:',
        '',
        '  # campaigns.summer_sale will be updated in-place',
        '  ~ campaign "summer_sale" {',
        '        id           = "8f0tz"',
        '      ~ daily_budget = 50.00 USD -> 75.00 USD',
        '      ~ name         = "Old" -> "New"',
        '        # (1 unchanged attribute hidden)',
        '    }',
        '',
        'Plan: 0 to add, 1 to change, 0 to destroy.',
        'Requests: 3 reads made, 4 writes planned (2 batches). Spend: +25.00 USD/day, +500.00 USD total.',
        '',
      ].join('\n'),
    );
  });

  it('renders a create with every attribute, unknown refs as (known after apply), and six-decimal money', () => {
    const out = text(plan([accountPlan([change('campaigns.c.line_items.us', 'create', { currency: 'USD', after: { name: 'US', campaign_id: { $ref: 'campaigns.c' }, bid_amount_local_micro: 1_234_567, target_cpa_local_micro: 2_500_000 } })])]));
    expect(out).toContain('  # campaigns.c.line_items.us will be created\n  + line_item "us" {\n');
    expect(out).toContain('      + id          = (known after apply)\n');
    expect(out).toContain('      + bid_amount  = 1.234567 USD\n');
    expect(out).toContain('      + campaign_id = (known after apply)\n');
    expect(out).toContain('      + target_cpa  = 2.50 USD\n');
    expect(out).toContain('Plan: 1 to add, 0 to change, 0 to destroy.\n');
    expect(out).not.toContain('1234567');
  });

  it('renders a replacement with -/+, the forcing attribute marked, and counts it as one add and one destroy', () => {
    const out = text(plan([accountPlan([change('campaigns.c.line_items.eu', 'replace', { id: 'li1', reason: 'replace_field', changes: [attr('objective', 'WEBSITE_CLICKS', 'ENGAGEMENTS', { forces: true })] })])]));
    expect(out).toContain('-/+ destroy and then create replacement\n');
    expect(out).toContain('  # campaigns.c.line_items.eu must be replaced\n-/+ line_item "eu" {\n');
    expect(out).toContain('      ~ id        = "li1" -> (known after apply)\n');
    expect(out).toContain('      ~ objective = "WEBSITE_CLICKS" -> "ENGAGEMENTS" # forces replacement\n');
    expect(out).toContain('Plan: 1 to add, 0 to change, 1 to destroy.\n');
  });

  it('renders a delete with every attribute going to null and the reason', () => {
    const out = text(plan([accountPlan([change('campaigns.old', 'delete', { id: 'c9', reason: 'removed', currency: 'EUR', before: { name: 'Old', daily_budget_amount_local_micro: 10_000_000 } })])]));
    expect(out).toContain(
      ['  # campaigns.old will be destroyed', '  # (because campaigns.old is not in the manifest)', '  - campaign "old" {', '      - id           = "c9" -> null', '      - daily_budget = 10.00 EUR -> null', '      - name         = "Old" -> null', '    }'].join('\n'),
    );
    expect(out).toContain('Plan: 0 to add, 0 to change, 1 to destroy.\n');
  });

  it('leaves no-op resources out of the text and the legend', () => {
    const out = text(plan([accountPlan([change('campaigns.same', 'noop', { before: { name: 'x' }, after: { name: 'x' } }), change('campaigns.new', 'create', { after: { name: 'n' } })])]));
    expect(out).not.toContain('campaigns.same');
    expect(out).not.toContain('~ update in-place');
    expect(out).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
  });

  it('lists drift in its own section before the actions and marks drifted attributes', () => {
    const out = text(plan([accountPlan([change('campaigns.c', 'update', { id: 'c1', changes: [attr('entity_status', 'PAUSED', 'ACTIVE', { drift: true }), attr('name', 'A', 'B')] })])]));
    const section = out.indexOf('Objects changed outside adsctl');
    const actions = out.indexOf('adsctl will perform the following actions:');
    expect(section).toBeGreaterThanOrEqual(0);
    expect(section).toBeLessThan(actions);
    const drift = out.slice(section, actions);
    expect(drift).toContain('  # campaigns.c has changed\n  ~ campaign "c" {\n');
    expect(drift).toContain('      ~ entity_status = "ACTIVE" -> "PAUSED"\n');
    expect(drift).not.toContain('"A"');
    expect(out.slice(actions)).toContain('      ~ entity_status = "PAUSED" -> "ACTIVE" (changed outside adsctl)\n');
    expect(out.slice(actions)).toContain('      ~ name          = "A" -> "B"\n');
  });

  it('shows an object deleted outside adsctl in the drift section and its re-creation with the reason', () => {
    const out = text(plan([accountPlan([change('campaigns.gone', 'create', { id: 'c7', reason: 'deleted_outside', after: { name: 'Gone' } })])]));
    expect(out).toContain('  # campaigns.gone has been deleted\n  - campaign "gone" {\n      - id = "c7" -> null\n    }\n');
    expect(out).toContain('  # campaigns.gone will be created\n  # (because it was deleted outside adsctl)\n');
  });

  it('shows an object adsctl stops managing, and keeps the Terraform footer', () => {
    const out = text(plan([accountPlan([change('funding_instruments.main', 'noop', { id: 'fi1', reason: 'released', before: { name: 'Card' }, after: null })])], { mode: 'destroy' }));
    expect(out).toContain('  # funding_instruments.main will no longer be managed by adsctl\n  # (the object is left in place)\n');
    expect(out).toContain('Plan: 0 to add, 0 to change, 0 to destroy.\n');
    expect(out).not.toContain('No changes');
  });

  it('says which line item a child is deleted with', () => {
    const p = plan([accountPlan([change('campaigns.a.line_items.b', 'delete'), change('campaigns.a.line_items.b.targeting["AGE:AGE_25_TO_49"]', 'delete')], { implied: [{ address: 'campaigns.a.line_items.b.targeting["AGE:AGE_25_TO_49"]', by: 'campaigns.a.line_items.b' }] })]);
    expect(text(p)).toContain('  # campaigns.a.line_items.b.targeting["AGE:AGE_25_TO_49"] will be destroyed\n  # (deleted with campaigns.a.line_items.b, no request of its own)\n  - targeting_criterion "AGE:AGE_25_TO_49" {\n');
  });

  it('reports an object deleted outside adsctl and no longer wanted as drift only', () => {
    const out = text(plan([accountPlan([change('campaigns.gone', 'noop', { id: 'c5', reason: 'deleted_outside', drift: true, before: null, after: null })])]));
    expect(out).toContain('  # campaigns.gone has been deleted\n');
    expect(out).toContain('No changes. The live accounts match the manifests.\n');
  });

  it('puts both markers on a drifted attribute that forces replacement', () => {
    const out = text(plan([accountPlan([change('campaigns.c.line_items.l', 'replace', { changes: [attr('product_type', 'A', 'B', { drift: true, forces: true })] })])]));
    expect(out).toContain('~ product_type = "A" -> "B" (changed outside adsctl) # forces replacement\n');
  });

  it('says No changes for an empty plan and for a plan of no-ops', () => {
    const expected = 'No changes. The live accounts match the manifests.\nRequests: 2 reads made, 0 writes planned. Spend: no change.\n';
    expect(text(plan([accountPlan([], { requests: { reads: 2 } })]))).toBe(expected);
    expect(text(plan([accountPlan([change('campaigns.a', 'noop', { before: { name: 'a' }, after: { name: 'a' } })], { requests: { reads: 2 } })]))).toBe(expected);
    expect(text(plan([accountPlan([])], { mode: 'destroy' }))).toContain('No changes. No objects need to be destroyed.\n');
  });

  it('shows spend falling with a minus sign and every currency that moved', () => {
    const out = text(plan([accountPlan([change('campaigns.a', 'update', { changes: [attr('name', 'a', 'b')] })], { requests: { reads: 1, writes: 1, batches: 1 }, spend: [spend('USD', -25_000_000, -1_234_567), spend('EUR', 1_500_000, 0), spend('GBP', 0, 0)] })]));
    expect(out).toContain('Requests: 1 read made, 1 write planned (1 batch). Spend: +1.50 EUR/day, 0.00 EUR total; -25.00 USD/day, -1.234567 USD total.\n');
  });

  it.each([
    { currency: 'JPY', old: 1_000_000_000, new: 1_500_000_000, bid: 1_500_000, shown: ['1000 JPY -> 1500 JPY', '1.5 JPY'], spend: '+500 JPY/day, +12000 JPY total' },
    { currency: 'KRW', old: 50_000_000_000, new: 49_999_000_000, bid: 700_000_000, shown: ['50000 KRW -> 49999 KRW', '700 KRW'], spend: '-1 KRW/day, +12000 KRW total' },
    { currency: 'USD', old: 50_000_000, new: 75_000_000, bid: 1_234_567, shown: ['50.00 USD -> 75.00 USD', '1.234567 USD'], spend: '+25.00 USD/day, +12000.00 USD total' },
    { currency: 'KWD', old: 5_000_000, new: 5_125_000, bid: 100_000, shown: ['5.000 KWD -> 5.125 KWD', '0.100 KWD'], spend: '+0.125 KWD/day, +12000.000 KWD total' },
  ])("prints $currency amounts with the currency's own decimals, and more only where an amount has them", ({ currency, old, new: now, bid, shown, spend: said }) => {
    const out = text(
      plan([
        accountPlan(
          [
            change('campaigns.a', 'update', { id: 'c1', currency, changes: [attr('daily_budget_amount_local_micro', old, now)] }),
            change('campaigns.a.line_items.b', 'create', { currency, after: { name: 'b', bid_amount_local_micro: bid } }),
          ],
          { spend: [spend(currency, now - old, 12_000_000_000)] },
        ),
      ]),
    );
    expect(out).toContain(`      ~ daily_budget = ${shown[0]}\n`);
    expect(out).toContain(`      + bid_amount = ${shown[1]}\n`);
    expect(out).toContain(`Spend: ${said}.\n`);
  });

  it('renders diagnostics with file:line:col and the source line, and fails the plan on errors', () => {
    const source = 'campaigns:\n  old:\n    name: Old\n';
    const diagnostic: Diagnostic = {
      severity: 'error',
      code: 'prevent-destroy',
      message: 'campaigns.old has lifecycle.prevent_destroy and would be destroyed',
      range: { file: 'ads.yaml', start: { line: 2, column: 3, offset: 13 }, end: { line: 2, column: 6, offset: 16 } },
    };
    const p = plan([accountPlan([change('campaigns.old', 'delete', { protected: true, before: { name: 'Old' } })])], { diagnostics: [diagnostic] });
    const out = renderPlan(p, 'text', { sources: new Map([['ads.yaml', source]]) });
    expect(out).toContain('  # (protected by prevent_destroy)\n');
    expect(out).toContain('ads.yaml:2:3: error prevent-destroy: campaigns.old has lifecycle.prevent_destroy and would be destroyed\n  2 |   old:\n    |   ^^^\n');
    expect(out.endsWith('Planning failed: 1 error. This plan cannot be applied.\n')).toBe(true);
    expect(out).not.toContain('Plan: ');
  });

  it('keeps the footer when diagnostics are only warnings', () => {
    const warning: Diagnostic = { severity: 'warning', code: 'lookup-cache', message: 'bidding rules are 40 days old' };
    const out = text(plan([accountPlan([change('campaigns.a', 'create', { after: { name: 'a' } })])], { diagnostics: [warning] }));
    expect(out).toContain('warning lookup-cache: bidding rules are 40 days old\n\nPlan: 1 to add, 0 to change, 0 to destroy.\n');
  });

  it('names every account, including those with nothing to do', () => {
    const out = text(plan([accountPlan([change('campaigns.a', 'create', { after: { name: 'a' } })], { account: 'prod.yaml', accountId: 'abc1', endpoint: 'production' }), accountPlan([], { account: 'xyz9', accountId: 'xyz9' })]));
    expect(out).toContain('Account abc1 on production:\n');
    expect(out).toContain('Account xyz9 on local: no changes.\n');
  });

  it.each([
    { name: 'by name and id', label: { account: 'acme.yaml', accountId: '18ce54d4x5t', name: 'Acme' }, title: 'Account "Acme" (18ce54d4x5t) on local' },
    { name: 'by name before it has an id', label: { account: 'acme.yaml', name: 'Acme' }, title: 'Account "Acme" on local' },
    { name: 'by id when it has no name', label: { account: 'acme.yaml', accountId: '18ce54d4x5t' }, title: 'Account 18ce54d4x5t on local' },
    { name: 'by its file while it has neither', label: { account: 'acme.yaml' }, title: 'Account acme.yaml on local' },
    { name: 'a name with quotes, quoted', label: { account: 'k', accountId: 'a1', name: 'Joe\'s "best"' }, title: 'Account "Joe\'s \\"best\\"" (a1) on local' },
  ])('labels an account $name', ({ label, title }) => {
    const p = plan([accountPlan([change('campaigns.a', 'create', { after: { name: 'a' } })], label)]);
    expect(text(p)).toContain(`\n${title}:\n`);
    expect(renderPlan(p, 'markdown')).toContain(`${title}: 1 to add`);
  });

  it('colours symbols only when asked: green +, yellow ~, red -', () => {
    const p = plan([accountPlan([change('campaigns.a', 'create', { after: { name: 'a' } }), change('campaigns.b', 'update', { changes: [attr('name', 'x', 'y')] }), change('campaigns.c', 'delete', { before: { name: 'c' } })])]);
    const doc = planToDocument(p);
    const plain = renderText(doc, { color: false });
    const coloured = renderText(doc, { color: true });
    expect(plain).not.toContain('\u001b[');
    expect(coloured).toContain('\u001b[32m+\u001b[0m campaign "a" {');
    expect(coloured).toContain('\u001b[33m~\u001b[0m campaign "b" {');
    expect(coloured).toContain('\u001b[31m-\u001b[0m campaign "c" {');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(plain);
  });
});
