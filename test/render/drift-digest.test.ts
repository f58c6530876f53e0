/**
 * The drift digest of `plan --refresh-only` (issue 22, "One drift report for many accounts"): the
 * accounts with drift and only those, per account what changed outside adsctl (fields, objects
 * deleted by hand, objects that appeared), who changed it when the document carries attribution,
 * the daily spend it moved; in text after the drift report, and as the whole Markdown output, one
 * issue body under the comment limit that leaves out whole entries and says how many. Golden
 * files in test/render/golden/refresh-only-digest/ (`UPDATE_GOLDEN=1` rewrites them).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { UnmanagedObject } from '../../src/diff/unmanaged.js';
import type { AccountPlan, Plan } from '../../src/plan/types.js';
import type { PlanDocument } from '../../src/render/document-types.js';
import { renderDriftDigest } from '../../src/render/drift-digest.js';
import { MARKDOWN_LIMIT } from '../../src/render/markdown.js';
import { planToDocument } from '../../src/render/plan-document.js';
import { refreshOnlyPlan, renderRefreshOnly } from '../../src/render/refresh-only.js';
import { accountPlan, attr, change, plan } from './plan-builder.js';

const update = process.env['UPDATE_GOLDEN'] === '1';
const golden = new URL('./golden/refresh-only-digest/', import.meta.url);

function check(name: string, actual: string): void {
  const file = new URL(name, golden);
  if (update) {
    mkdirSync(golden, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`${file.pathname} is missing; run UPDATE_GOLDEN=1 npx vitest run test/render/drift-digest.test.ts`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

const handMade = (id: string, name: string, status: string, isNew: boolean, dailyBudgetMicros: number | null): UnmanagedObject => ({ kind: 'campaign', id, name, status, parentId: null, parentAddress: null, dailyBudgetMicros, serves: status === 'ACTIVE', currency: 'USD', new: isNew });

function withUnmanaged(a: AccountPlan, unmanaged: UnmanagedObject[]): AccountPlan {
  return { ...a, unmanaged };
}

/** Three accounts: north only has a manifest edit (no drift), east was changed by hand, west got a hand-made campaign. */
const threeAccounts: Plan = plan([
  accountPlan([change('campaigns.brand', 'update', { id: 'c1', currency: 'USD', changes: [attr('daily_budget_amount_local_micro', 10_000_000, 20_000_000)] }, { name: 'Brand' })], { account: 'north.yaml', accountId: 'n1', requests: { reads: 3, writes: 1 } }),
  accountPlan(
    [
      change('campaigns.launch', 'update', { id: 'c2', currency: 'USD', changes: [attr('daily_budget_amount_local_micro', 5_000_000, 10_000_000, { drift: true }), attr('entity_status', 'ACTIVE', 'PAUSED', { drift: true }), attr('name', 'Launch', 'Launch 2')] }, { funding_instrument_id: 'fi1' }),
      change('campaigns.launch.line_items.us', 'create', { id: 'l2', reason: 'deleted_outside', drift: true, currency: 'USD', after: { name: 'US', daily_budget_amount_local_micro: 2_000_000 } }),
    ],
    { account: 'east.yaml', accountId: 'e1', requests: { reads: 4, writes: 2 } },
  ),
  withUnmanaged(accountPlan([change('campaigns.always_on', 'noop', { id: 'c3', before: { name: 'Always on' }, after: { name: 'Always on' } })], { account: 'west.yaml', accountId: 'w1', requests: { reads: 3 } }), [
    handMade('c9', 'Black Friday (by hand)', 'ACTIVE', true, 500_000_000),
    handMade('c8', 'Old test', 'PAUSED', false, 1_000_000),
  ]),
]);

type Attribution = NonNullable<PlanDocument['resource_changes'][number]['attribution']>;

/** The refresh-only document of `p` with attribution set, as the account history fills it: by resource address, and by unmanaged object id. */
function attributed(p: Plan, byAddress: Record<string, Attribution>, byId: Record<string, Attribution>): PlanDocument {
  const doc = planToDocument(refreshOnlyPlan(p), { shownOnly: true });
  return {
    ...doc,
    resource_changes: doc.resource_changes.map((rc) => (byAddress[rc.address] === undefined ? rc : { ...rc, attribution: byAddress[rc.address] })),
    unmanaged: (doc.unmanaged ?? []).map((u) => (byId[u.id] === undefined ? u : { ...u, attribution: byId[u.id] })),
  };
}

describe('the drift digest', () => {
  it('names the accounts with drift and only those, with what changed and the daily spend it moved', () => {
    const text = renderRefreshOnly(threeAccounts, 'text');
    const digest = text.slice(text.indexOf('Drift digest:'));
    expect(digest).toContain('Drift digest: 2 of 3 accounts changed outside adsctl since the last apply.\n');
    expect(digest).toContain('Account e1 on local: 1 changed, 1 deleted; daily spend -7.00 USD/day\n');
    expect(digest).toContain('  ~ campaigns.launch: daily_budget 10.00 USD -> 5.00 USD, entity_status "PAUSED" -> "ACTIVE"\n');
    expect(digest).toContain('  - campaigns.launch.line_items.us: deleted outside adsctl\n');
    expect(digest).toContain('Account w1 on local: 1 appeared; daily spend +500.00 USD/day\n');
    expect(digest).toContain('  + campaign "Black Friday (by hand)" (id c9): ACTIVE, serving, daily budget 500.00 USD, not managed by adsctl\n');
    expect(digest).toContain('Daily spend moved outside adsctl: +493.00 USD/day.\n');
    expect(digest).not.toContain('north.yaml');
    expect(digest).not.toContain('Old test');
    expect(digest).not.toContain('Launch 2');
    // the digest ends the report, before the requests line
    expect(text).toMatch(/Daily spend moved outside adsctl: \+493\.00 USD\/day\.\n\nRequests: [^\n]*\n$/);
    check('plan.txt', text);
  });

  it('is the whole Markdown output: one issue body with a table of the accounts with drift', () => {
    const md = renderRefreshOnly(threeAccounts, 'markdown');
    expect(md.startsWith('## adsctl drift report\n\n**2 of 3 accounts changed outside adsctl since the last apply.**\n')).toBe(true);
    expect(md).toContain('| east.yaml (local) | 1 | 1 | 0 | -7.00 USD/day |  |\n');
    expect(md).toContain('| west.yaml (local) | 0 | 0 | 1 | +500.00 USD/day |  |\n');
    expect(md).toContain('| **Total** | 1 | 1 | 1 | +493.00 USD/day | |\n');
    expect(md).toContain('```diff\n! campaigns.launch: daily_budget 10.00 USD -> 5.00 USD, entity_status "PAUSED" -> "ACTIVE"\n- campaigns.launch.line_items.us: deleted outside adsctl\n```\n');
    expect(md).not.toContain('north.yaml');
    check('plan.md', md);
  });

  it('carries the spend it shows in the JSON plan, per account', () => {
    const json = JSON.parse(renderRefreshOnly(threeAccounts, 'json')) as PlanDocument;
    expect(json.accounts.map((a) => [a.key, a.spend.map((s) => s.daily)])).toEqual([
      ['north.yaml', []],
      ['east.yaml', ['-7.00']],
      ['west.yaml', ['500.00']],
    ]);
    expect(json.spend.map((s) => [s.currency, s.daily_micros])).toEqual([['USD', 493_000_000]]);
  });

  it('says who changed it when the document has attribution, in text and Markdown alike, and nothing when it has none', () => {
    const doc = attributed(
      threeAccounts,
      {
        'campaigns.launch': [
          { user_id: '756201191646691328', platform: 'WEB', change_time: '2026-11-26T14:00:00Z', change_type: 'UPDATE', fields: ['daily_budget_amount_local_micro'], screen_name: 'ads_ops_anna' },
          { user_id: '42', platform: 'API', change_time: '2026-11-26T09:30:00Z', change_type: 'UPDATE', fields: ['entity_status'] },
          { user_id: null, platform: 'WEB', change_time: '2026-11-25T08:00:00Z', change_type: 'UPDATE' },
        ],
        'campaigns.launch.line_items.us': [{ user_id: '42', platform: 'API', change_time: '2026-11-26T10:00:00Z', change_type: 'DELETE' }],
      },
      { c9: [{ user_id: '99', platform: 'API', change_time: '2026-11-27T01:02:03Z', change_type: 'CREATE', screen_name: 'night_shift' }] },
    );
    // each field names the change that made it, as the plan's drift report does
    const changed = 'campaigns.launch: daily_budget 10.00 USD -> 5.00 USD by @ads_ops_anna (user 756201191646691328) at 2026-11-26T14:00:00Z, entity_status "PAUSED" -> "ACTIVE" by user 42 at 2026-11-26T09:30:00Z';
    const deleted = 'campaigns.launch.line_items.us: deleted outside adsctl by user 42 at 2026-11-26T10:00:00Z';
    const made = 'campaign "Black Friday (by hand)" (id c9): ACTIVE, serving, daily budget 500.00 USD, not managed by adsctl, made by @night_shift (user 99) at 2026-11-27T01:02:03Z';
    const text = renderDriftDigest(doc, 'text');
    for (const [symbol, entry] of [['~', changed], ['-', deleted], ['+', made]]) expect(text).toContain(`  ${symbol} ${entry}\n`);
    expect(text).toContain('Account e1 on local: 1 changed, 1 deleted; daily spend -7.00 USD/day; changed by @ads_ops_anna (user 756201191646691328), user 42\n');
    expect(text).toContain('Account w1 on local: 1 appeared; daily spend +500.00 USD/day; changed by @night_shift (user 99)\n');
    const md = renderDriftDigest(doc, 'markdown');
    for (const [symbol, entry] of [['!', changed], ['-', deleted], ['+', made]]) expect(md).toContain(`\n${symbol} ${entry}\n`);
    // in the table, names in code spans: a screen name mentions nobody on the forge
    expect(md).toContain('| east.yaml (local) | 1 | 1 | 0 | -7.00 USD/day | `@ads_ops_anna (user 756201191646691328)`, `user 42` |\n');
    expect(md).toContain('| west.yaml (local) | 0 | 0 | 1 | +500.00 USD/day | `@night_shift (user 99)` |\n');
    // one change that made every field is named once, at the end
    const once = attributed(threeAccounts, { 'campaigns.launch': [{ user_id: '7', platform: 'API', change_time: '2026-11-26T11:00:00Z', change_type: 'UPDATE', fields: ['daily_budget_amount_local_micro', 'entity_status'] }] }, {});
    expect(renderDriftDigest(once, 'text')).toContain('  ~ campaigns.launch: daily_budget 10.00 USD -> 5.00 USD, entity_status "PAUSED" -> "ACTIVE" by user 7 at 2026-11-26T11:00:00Z\n');
    // without attribution, nothing is said about who
    const plain = renderRefreshOnly(threeAccounts, 'text');
    expect(plain.slice(plain.indexOf('Drift digest:'))).not.toMatch(/ by (user|@)|changed by|, made/);
  });

  it('is empty in text and says so in Markdown when nothing changed outside adsctl', () => {
    const calm = plan([accountPlan([change('campaigns.brand', 'update', { id: 'c1', changes: [attr('name', 'A', 'B')] })], { account: 'north.yaml', accountId: 'n1' })]);
    expect(renderRefreshOnly(calm, 'text')).not.toContain('Drift digest');
    expect(renderRefreshOnly(calm, 'markdown')).toBe('## adsctl drift report\n\n**No drift: nothing changed outside adsctl in the 1 account since the last apply.**\n');
  });
});

describe('the drift digest in Markdown on a large drift', () => {
  const ACCOUNTS = 300;
  const PER_ACCOUNT = 40;
  const large = plan(
    Array.from({ length: ACCOUNTS }, (_, a) =>
      accountPlan(
        Array.from({ length: PER_ACCOUNT }, (_, c) =>
          change(`campaigns.c${String(c).padStart(3, '0')}`, 'update', { id: `c${a}-${c}`, currency: 'USD', changes: [attr('name', `Renamed by hand in account ${a}, campaign ${c}`, `Campaign ${c} of account ${a}`, { drift: true }), attr('daily_budget_amount_local_micro', 12_000_000, 10_000_000, { drift: true })] }),
        ),
        { account: `client-${String(a).padStart(3, '0')}.yaml`, accountId: `acct${a}` },
      ),
    ),
  );
  const md = renderRefreshOnly(large, 'markdown');

  it('stays under the comment limit', () => {
    expect(md.length).toBeLessThan(MARKDOWN_LIMIT);
  });

  it('leaves out whole entries, never part of a line, and says how many', () => {
    const total = ACCOUNTS * PER_ACCOUNT;
    const shown = md.split('\n').filter((l) => /^! campaigns\.c\d{3}: /.test(l));
    // every entry shown is whole
    for (const line of shown) expect(line).toMatch(/^! campaigns\.c\d{3}: daily_budget 10\.00 USD -> 12\.00 USD, name "Campaign \d+ of account \d+" -> "Renamed by hand in account \d+, campaign \d+"$/);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(total);
    const note = /> \*\*This report was cut to stay under 60000 characters\.\*\* Left out: (\d+) of the (\d+) changes outside adsctl \(every change of (\d+) of the (\d+) accounts with drift\)\. `adsctl plan --refresh-only` lists every one\.\n$/.exec(md);
    expect(note, md.slice(-500)).not.toBeNull();
    expect(Number(note![1]) + shown.length).toBe(total);
    expect(Number(note![2])).toBe(total);
    const sections = (md.match(/^### Account /gm) ?? []).length;
    expect(Number(note![3]) + sections).toBe(ACCOUNTS);
    // every fence opened is closed
    expect((md.match(/^```/gm) ?? []).length % 2).toBe(0);
  });

  it('counts every account in the table, the ones that do not fit in one row', () => {
    const rows = md.split('\n').filter((l) => /^\| client-\d{3}\.yaml \(local\) \| 40 \| 0 \| 0 \| \+80\.00 USD\/day \|  \|$/.test(l));
    const more = /\| and (\d+) more accounts with drift, in `adsctl plan --refresh-only` \|/.exec(md);
    expect(rows.length + Number(more?.[1] ?? 0)).toBe(ACCOUNTS);
    expect(md).toContain('| **Total** | 12000 | 0 | 0 | +24000.00 USD/day | |');
  });
});
