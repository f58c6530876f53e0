/**
 * Guardrails of adsctl.yaml (docs/manifest.md, "Guardrails") through the engine in-process
 * (test/support/engine-harness.ts) against the in-process emulator, every write counted on a wire
 * log: each rule refuses at plan (exit 1, every violation
 * with its rule, address, value and limit) and at apply with nothing written, and lets through
 * the same change at its limit; an advisory rule warns and the apply goes on; `--allow` is
 * recorded in the text, Markdown and JSON plans and in the state history; a saved plan is held to
 * the guardrails in force when it is applied; `protect_serving` holds against removal from the
 * manifest, `destroy` and a targeted destroy; bad settings are errors at their line and column
 * with nothing sent.
 *
 * One emulator and one workspace serve the whole file, as steps in order. A plan lists every
 * violation, so the mandatory rules are broken all at once, each by one step, in one manifest: one
 * text plan, one JSON plan and one apply show each rule refusing (its line marked `error`, its JSON
 * entry mandatory and not allowed) with nothing written, and one plan shows them all at their
 * limits letting the change through. Likewise the bad settings sit in one adsctl.yaml, each an
 * error at its own line and column. A refused run is shown to have written nothing by the wire
 * log, not by a plan after it; an apply that goes on is shown by the writes it sent and by the
 * next plan, which finds only its own change left to make, and the file ends with a plan that
 * finds nothing left to change.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { seededAccountHead, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineRun, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';
import { startWireLog, type WireLog } from '../support/wire-log.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let log: WireLog;
let ws: EngineWorkspace;
const clock = manualClock();

interface Sale {
  campaignName?: string;
  daily?: string;
  total?: string;
  bid?: string;
  /** The daily budgets of the two campaigns that serve beside live (ACTIVE, with an ACTIVE line item), 17.50 each unless told. */
  serving?: [string, string];
  /** Extra campaigns, as manifest text. */
  extra?: string;
}

const lineItem = (name: string, bid: string, status = 'PAUSED'): string => `    line_items:
      feed:
        name: ${name}
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        start_time: "2030-01-01T00:00:00Z"
        bid_strategy: MAX
        bid_amount: "${bid}"
        entity_status: ${status}
`;

const campaign = (key: string, name: string, status: string, daily = '5.00'): string => `  ${key}:
    name: ${name}
    funding_instrument: main
    daily_budget: "${daily}"
    entity_status: ${status}
${lineItem('feed', '1.00')}`;

/** A campaign that serves: ACTIVE, with an ACTIVE line item. */
const servingCampaign = (key: string, name: string, daily: string): string => `  ${key}:
    name: ${name}
    funding_instrument: main
    daily_budget: "${daily}"
    entity_status: ACTIVE
${lineItem('feed', '1.00', 'ACTIVE')}`;

const manifest = (s: Sale = {}): string =>
  `${seededAccountHead(log.url)}campaigns:
${servingCampaign('steady_a', 'US-Steady A', s.serving?.[0] ?? '17.50')}${servingCampaign('steady_b', 'US-Steady B', s.serving?.[1] ?? '17.50')}  sale:
    name: ${s.campaignName ?? 'US-Sale'}
    funding_instrument: main
    daily_budget: "${s.daily ?? '35.00'}"
    total_budget: "${s.total ?? '1000.00'}"
    entity_status: PAUSED
${lineItem('feed', s.bid ?? '1.00')}${s.extra ?? ''}`;

const LIVE = servingCampaign('live', 'US-Live', '5.00');

const guardrails = (yaml: string): void => writeFileSync(join(ws.dir, 'adsctl.yaml'), yaml);
const noGuardrails = (): void => rmSync(join(ws.dir, 'adsctl.yaml'), { force: true });

async function expectNoChanges(): Promise<void> {
  const plan = await expectCode(ws.plan({ detailedExitcode: true }), 0);
  expect(plan.stdout).toContain('No changes.');
}

interface BatchItem {
  operation_type: string;
  params: Record<string, unknown>;
}

/** The items of the batch writes to `collection` (campaigns, line_items) since the last reset. */
const batchItems = (collection: string): BatchItem[] =>
  log
    .writes()
    .filter((w) => w.path.endsWith(`/${collection}`) && Array.isArray(w.json))
    .flatMap((w) => w.json as BatchItem[]);

beforeAll(async () => {
  ({ emulator } = await startTestEmulator({ clock }));
  log = await startWireLog(emulator.info.base_url);
  ws = createEngineWorkspace(emulator.info, manifest({ extra: LIVE }), clock);
  await expectCode(ws.apply(), 0);
});
afterAll(async () => {
  ws?.remove();
  await log?.close();
  await emulator?.close();
});
stepsInOrder();

interface RuleCase {
  rule: string;
  /** The rule's setting in adsctl.yaml. */
  yaml: string;
  /** The violation's line in the text plan (after the status word), as a regular expression. */
  line: RegExp;
  address: string;
  value: string;
  limit: string;
}

/**
 * Every mandatory rule but protect_serving (below), each broken by one step in `over()` and met
 * exactly in `atLimits()`. What the account can spend is what serves: steady_a and steady_b,
 * 17.50 a day each, and live, 5.00 (sale is paused: dormant); `over()` raises steady_a and
 * steady_b to 52.51 and 52.50: +70.01 a day, one cent over +70.00 and over +175% of 40.00
 * (`atLimits()`: 52.50 each, +70.00, exactly +175%). Raising sale to 100.01, a paused campaign,
 * moves no serving spend.
 */
const CASES: RuleCase[] = [
  { rule: 'max_daily_budget', yaml: 'max_daily_budget: "100.00"', line: /error +max_daily_budget +campaigns\.sale +daily_budget = 100\.01 USD +limit 100\.00 USD/, address: 'campaigns.sale', value: '100.01 USD', limit: '100.00 USD' },
  { rule: 'max_total_budget', yaml: 'max_total_budget: "5000.00"', line: /error +max_total_budget +campaigns\.sale +total_budget = 5000\.01 USD +limit 5000\.00 USD/, address: 'campaigns.sale', value: '5000.01 USD', limit: '5000.00 USD' },
  { rule: 'max_bid', yaml: 'max_bid: "2.00"', line: /error +max_bid +campaigns\.sale\.line_items\.feed +bid_amount = 2\.01 USD +limit 2\.00 USD/, address: 'campaigns.sale.line_items.feed', value: '2.01 USD', limit: '2.00 USD' },
  { rule: 'max_daily_spend_increase', yaml: 'max_daily_spend_increase: "70.00"', line: /error +max_daily_spend_increase +account +\+70\.01 USD\/day +limit \+70\.00 USD\/day/, address: 'account', value: '+70.01 USD/day', limit: '+70.00 USD/day' },
  {
    rule: 'max_daily_spend_increase_percent',
    yaml: 'max_daily_spend_increase_percent: 175',
    line: /error +max_daily_spend_increase_percent +account +\+175\.03% \(\+70\.01 USD\/day on 40\.00 USD\/day\) +limit \+175%/,
    address: 'account',
    value: '+175.03% (+70.01 USD/day on 40.00 USD/day)',
    limit: '+175%',
  },
  { rule: 'create_paused', yaml: 'create_paused: true', line: /error +create_paused +campaigns\.fresh +entity_status = ACTIVE +limit PAUSED/, address: 'campaigns.fresh', value: 'ACTIVE', limit: 'PAUSED' },
  { rule: 'names', yaml: 'names: { campaigns: "^[A-Z]{2}-", line_items: "^[a-z]" }', line: /error +names +campaigns\.sale +name = Sale +limit \/\^\[A-Z\]\{2\}-\//, address: 'campaigns.sale', value: 'Sale', limit: '/^[A-Z]{2}-/' },
];

const over = (): string => manifest({ campaignName: 'Sale', daily: '100.01', total: '5000.01', bid: '2.01', serving: ['52.51', '52.50'], extra: `${LIVE}${campaign('fresh', 'US-Fresh', 'ACTIVE')}` });
const atLimits = (): string => manifest({ campaignName: 'UK-Sale', daily: '100.00', total: '5000.00', bid: '2.00', serving: ['52.50', '52.50'], extra: `${LIVE}${campaign('fresh', 'US-Fresh', 'PAUSED')}` });

describe('the mandatory rules', () => {
  let plan: EngineRun;
  let json: { guardrails: unknown[] };
  let apply: EngineRun;

  it('refuse the changes one step over their limits at plan and at apply, before any write', async () => {
    guardrails(`guardrails:\n${CASES.map((c) => `  ${c.yaml}\n`).join('')}`);
    ws.write(over());
    log.reset();
    plan = await expectCode(ws.plan(), 1);
    expect(plan.stdout).toContain('Guardrails of adsctl.yaml:');
    expect(plan.stdout).toContain(`Planning failed: ${CASES.length} mandatory guardrails of adsctl.yaml violated. This plan cannot be applied.`);
    json = JSON.parse((await expectCode(ws.plan({ format: 'json' }), 1)).stdout) as { guardrails: unknown[] };
    expect(json.guardrails).toHaveLength(CASES.length);
    apply = await expectCode(ws.apply(), 1);
    expect(apply.stdout + apply.stderr).not.toContain('Apply complete!');
    expect(log.writes()).toEqual([]);
  });

  it.each(CASES)('$rule: listed at plan (text and JSON) and at apply, its line marked', (c) => {
    expect(plan.stdout).toMatch(c.line);
    if (c.address !== 'account') expect(plan.stdout).toContain(`  # guardrail ${c.rule} (mandatory)`);
    expect(json.guardrails).toContainEqual(expect.objectContaining({ rule: c.rule, address: c.address, enforcement: 'mandatory', value: c.value, limit: c.limit, allowed: false, account: ACCOUNT }));
    expect(apply.stdout).toMatch(c.line);
  });

  it('let the same changes through at their limits', async () => {
    ws.write(atLimits());
    const atLimit = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(atLimit.stdout).not.toContain('Guardrails of adsctl.yaml:');
    expect(atLimit.stdout).toMatch(/Plan: \d+ to add, \d+ to change, 0 to destroy\./);
  });
});

describe('an advisory rule', () => {
  it('warns and the apply goes on', async () => {
    guardrails('guardrails:\n  max_daily_budget: { value: "100.00", enforcement: advisory }\n');
    ws.write(manifest({ daily: '100.01', extra: LIVE }));
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toMatch(/warning +max_daily_budget +campaigns\.sale +daily_budget = 100\.01 USD +limit 100\.00 USD \(advisory\)/);
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    const markdown = await expectCode(ws.plan({ format: 'markdown' }), 0);
    expect(markdown.stdout).toContain('| advisory | max\\_daily\\_budget | campaigns.sale | daily\\_budget = 100.01 USD | 100.00 USD |');
    log.reset();
    const apply = await expectCode(ws.apply(), 0);
    expect(apply.stdout).toContain('Apply complete!');
    expect(batchItems('campaigns')).toContainEqual({ operation_type: 'Update', params: expect.objectContaining({ daily_budget_amount_local_micro: 100_010_000 }) });
  });
});

describe('--allow', () => {
  it('lifts the rule for the run, and the text, Markdown and JSON plans say so', async () => {
    guardrails('guardrails:\n  max_daily_budget: "100.00"\n  max_bid: "2.00"\n');
    ws.write(manifest({ daily: '150.00', extra: LIVE }));
    const text = await expectCode(ws.plan({ allow: ['max_daily_budget'], detailedExitcode: true }), 2);
    // the advisory apply before left the account at 100.01 a day and nothing else to change
    expect(text.stdout).toMatch(/~ daily_budget = 100\.01 USD -> 150\.00 USD/);
    expect(text.stdout).toMatch(/allowed +max_daily_budget +campaigns\.sale +daily_budget = 150\.00 USD +limit 100\.00 USD \(lifted by --allow max_daily_budget\)/);
    expect(text.stdout).toContain('Lifted for this run: --allow max_daily_budget.');
    expect(text.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    const markdown = await expectCode(ws.plan({ allow: ['max_daily_budget'], format: 'markdown' }), 0);
    const [head] = markdown.stdout.split('| Account |');
    expect(head).toContain('### Guardrails');
    expect(head).toContain('| allowed | max\\_daily\\_budget | campaigns.sale |');
    expect(head).toContain('Lifted for this run: `--allow max_daily_budget`.');
    const json = JSON.parse((await expectCode(ws.plan({ allow: ['max_daily_budget'], format: 'json' }), 0)).stdout) as { format_version: string; guardrails: Array<Record<string, unknown>>; guardrails_allowed?: string[] };
    expect(json.format_version).toBe('2.8');
    expect(json.guardrails).toEqual([expect.objectContaining({ rule: 'max_daily_budget', allowed: true, enforcement: 'mandatory', value: '150.00 USD', limit: '100.00 USD' })]);
    expect(json.guardrails_allowed).toEqual(['max_daily_budget']);
  });

  it('lifts only the rule named', async () => {
    ws.write(manifest({ daily: '150.00', bid: '2.50', extra: LIVE }));
    const plan = await expectCode(ws.plan({ allow: ['max_daily_budget'] }), 1);
    expect(plan.stdout).toMatch(/error +max_bid/);
    expect(plan.stdout).toMatch(/allowed +max_daily_budget/);
  });

  it('is recorded in the state history of the apply', async () => {
    ws.write(manifest({ daily: '150.00', extra: LIVE }));
    log.reset();
    await expectCode(ws.apply({ allow: ['max_daily_budget'] }), 0);
    expect(log.writes().length).toBeGreaterThan(0);
    const history = await ws.history(ACCOUNT);
    expect(history[0]?.operation).toContain('apply (--allow max_daily_budget)');
  });
});

describe('a saved plan', () => {
  it('is held to the guardrails in force when it is applied, not when it was made', async () => {
    noGuardrails();
    ws.write(manifest({ daily: '250.00', extra: LIVE }));
    const made = await expectCode(ws.plan({ out: 'raise.plan' }), 0);
    // the apply with --allow before left the account at 150.00 a day and nothing else to change
    expect(made.stdout).toMatch(/~ daily_budget = 150\.00 USD -> 250\.00 USD/);
    expect(made.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    guardrails('guardrails:\n  max_daily_budget: "200.00"\n');
    log.reset();
    const refused = await expectCode(ws.applySaved('raise.plan'), 1);
    expect(refused.stderr).toMatch(/error +max_daily_budget +campaigns\.sale +daily_budget = 250\.00 USD +limit 200\.00 USD/);
    expect(refused.stderr).toContain('Apply refused by guardrails: 1 mandatory guardrail of adsctl.yaml violated. Nothing was applied.');
    expect(refused.stderr).not.toContain('Planning failed');
    expect(log.writes()).toEqual([]);
  });

  it('goes through with the rule lifted at apply, and the history says so', async () => {
    log.reset();
    const applied = await expectCode(ws.applySaved('raise.plan', { allow: ['max_daily_budget'] }), 0);
    expect(applied.stdout).toContain('Apply complete!');
    expect(applied.stderr).toContain('Lifted for this run: --allow max_daily_budget.');
    expect(batchItems('campaigns')).toContainEqual({ operation_type: 'Update', params: expect.objectContaining({ daily_budget_amount_local_micro: 250_000_000 }) });
    const history = await ws.history(ACCOUNT);
    expect(history[0]?.operation).toContain('apply (--allow max_daily_budget)');
  });
});

describe('protect_serving', () => {
  it('refuses the removal of a serving campaign from the manifest, at plan and at apply', async () => {
    guardrails('guardrails:\n  protect_serving: true\n');
    ws.write(manifest());
    log.reset();
    const plan = await expectCode(ws.plan(), 1);
    expect(plan.stdout).toMatch(/error +protect_serving +campaigns\.live +ACTIVE, deleted +limit not deleted or replaced while serving/);
    // its line item serves too; the paused sale's line items are not listed
    expect(plan.stdout).toMatch(/error +protect_serving +campaigns\.live\.line_items\.feed +ACTIVE, deleted/);
    expect(plan.stdout).not.toMatch(/protect_serving +campaigns\.sale/);
    await expectCode(ws.apply(), 1);
    expect(log.writes()).toEqual([]);
  });

  it('refuses adsctl destroy, whole or targeted, with nothing written, listing only what serves', async () => {
    // dozing: a paused campaign whose line item is ACTIVE, which serves nothing
    const dozing = servingCampaign('dozing', 'US-Dozing', '9.00').replace('entity_status: ACTIVE\n', 'entity_status: PAUSED\n');
    ws.write(manifest({ extra: `${LIVE}${dozing}` }));
    await expectCode(ws.apply(), 0);
    log.reset();
    const destroy = await expectCode(ws.destroy(), 1);
    expect(destroy.stdout).toMatch(/error +protect_serving +campaigns\.live +ACTIVE, deleted/);
    expect(destroy.stdout).toMatch(/error +protect_serving +campaigns\.steady_a\.line_items\.feed +ACTIVE, deleted/);
    expect(destroy.stdout).not.toMatch(/protect_serving +campaigns\.(dozing|sale)/);
    const targeted = await expectCode(ws.destroy({ target: ['campaigns.live'] }), 1);
    expect(targeted.stdout).toMatch(/error +protect_serving +campaigns\.live +ACTIVE, deleted/);
    expect(log.writes()).toEqual([]);
    // a targeted destroy of what does not serve goes on
    const paused = await expectCode(ws.plan({ target: ['campaigns.sale'], destroy: true }), 0);
    expect(paused.stdout).not.toContain('Guardrails of adsctl.yaml:');
  });

  it('lets a paused campaign go', async () => {
    ws.write(manifest({ extra: LIVE.replace('entity_status: ACTIVE', 'entity_status: PAUSED') }));
    await expectCode(ws.apply(), 0);
    ws.write(manifest());
    log.reset();
    await expectCode(ws.apply(), 0);
    expect(batchItems('campaigns')).toContainEqual({ operation_type: 'Delete', params: expect.objectContaining({ campaign_id: expect.any(String) }) });
    // that nothing is left to change is the last step's plan
  });
});

/** Every bad setting in one adsctl.yaml: each is an error at its own line and column. */
const BAD = [
  { name: 'a regular expression that does not compile', at: 'adsctl.yaml:3:16: error guardrails-regex' },
  { name: 'an unknown collection', at: 'adsctl.yaml:4:5: error guardrails-collection' },
  { name: 'an amount that is not one', at: 'adsctl.yaml:5:12: error guardrails-number' },
  { name: 'an unknown rule', at: 'adsctl.yaml:6:3: error guardrails-rule' },
  { name: 'an account no manifest has', at: 'adsctl.yaml:8:5: error guardrails-account' },
];
const BAD_YAML = `guardrails:
  names:
    campaigns: "^[A-Z"
    campagins: "^x"
  max_bid: "2,00"
  max_spend: "2.00"
  accounts:
    "18ce54d4x5u": { max_bid: "1.00" }
`;

describe('bad settings', () => {
  let plan: EngineRun;
  let apply: EngineRun;

  it('stop plan and apply with nothing sent', async () => {
    guardrails(BAD_YAML);
    log.reset();
    plan = await expectCode(ws.plan(), 1);
    apply = await expectCode(ws.apply(), 1);
    expect(log.requests()).toEqual([]);
  });

  it.each(BAD)('stop at $name, at its line and column', ({ at }) => {
    expect(plan.stderr).toContain(at);
    expect(apply.stderr).toContain(at);
  });

  it('ends with a clean plan once the file is fixed', async () => {
    noGuardrails();
    await expectNoChanges();
  });
});

describe('serving spend', () => {
  /** `wake`: 100.00 a day, its line item ACTIVE, the campaign `status`. */
  const wake = (status: string): string => servingCampaign('wake', 'US-Wake', '100.00').replace('entity_status: ACTIVE\n', `entity_status: ${status}\n`);

  it('a campaign created paused serves nothing: its budget is dormant, and no spend rule is broken', async () => {
    guardrails('guardrails:\n  max_daily_spend_increase: "50.00"\n');
    ws.write(manifest({ extra: wake('PAUSED') }));
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).not.toContain('Guardrails of adsctl.yaml:');
    expect(plan.stdout).toMatch(/Spend: serving unchanged at 35\.00 USD\/day, \d+\.\d{2} USD\/day dormant, \d+\.\d{2} USD committed/);
    const json = JSON.parse((await expectCode(ws.plan({ format: 'json' }), 0)).stdout) as { spend: Array<Record<string, unknown>> };
    expect(json.spend).toEqual([expect.objectContaining({ currency: 'USD', serving_daily_before: '35.00', serving_daily_after: '35.00', serving_daily_before_micros: 35_000_000, serving_daily_after_micros: 35_000_000 })]);
    await expectCode(ws.apply(), 0);
  });

  it('activating it is +100.00 a day: refused by max_daily_spend_increase, applied with --allow', async () => {
    ws.write(manifest({ extra: wake('ACTIVE') }));
    log.reset();
    const plan = await expectCode(ws.plan(), 1);
    expect(plan.stdout).toMatch(/error +max_daily_spend_increase +account +\+100\.00 USD\/day +limit \+50\.00 USD\/day/);
    const json = JSON.parse((await expectCode(ws.plan({ format: 'json' }), 1)).stdout) as { spend: Array<Record<string, unknown>> };
    expect(json.spend).toEqual([expect.objectContaining({ serving_daily_before: '35.00', serving_daily_after: '135.00' })]);
    await expectCode(ws.apply(), 1);
    expect(log.writes()).toEqual([]);
    await expectCode(ws.apply({ allow: ['max_daily_spend_increase'] }), 0);
    await expectNoChanges();
    noGuardrails();
  });

  /** A credit line of 500.00, and `credit` on it: 100.00 a day, its line item ending ten days after the test instant. */
  const onCredit = (status: string): string =>
    manifest({ extra: wake('ACTIVE') }).replace('funding_instruments:\n', 'funding_instruments:\n  line: { type: CREDIT_LINE, currency: USD, start_time: 2026-11-01T00:00:00Z, end_time: 2027-06-01T00:00:00Z, credit_limit: "500.00" }\n') +
    `  credit:
    name: US-Credit
    funding_instrument: line
    daily_budget: "100.00"
    entity_status: ${status}
    line_items:
      feed:
        name: feed
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        start_time: "2026-11-01T00:00:00Z"
        end_time: "2026-12-03T12:00:00Z"
        bid_strategy: MAX
        bid_amount: "1.00"
        entity_status: ACTIVE
`;

  it('warns when what serves on a funding instrument commits more than its credit left', async () => {
    ws.write(onCredit('PAUSED'));
    await expectCode(ws.apply(), 0);
    ws.write(onCredit('ACTIVE'));
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout + plan.stderr).toMatch(/warning[^\n]*committed-over-credit[^\n]*commit 1000\.00 USD over their flights, more than the 500\.00 USD of credit it has left: campaigns\.credit/);
    expect(plan.stdout).toMatch(/Spend: \+100\.00 USD\/day serving \(from \d+\.\d{2} to \d+\.\d{2}\), [^\n]*\d+\.\d{2} USD committed/);
  });

  it('max_committed_spend refuses it at plan and apply, nothing written', async () => {
    const json = JSON.parse((await expectCode(ws.plan({ format: 'json' }), 0)).stdout) as { spend: Array<{ committed_total_after_micros: number }> };
    const committed = json.spend[0]!.committed_total_after_micros;
    guardrails(`guardrails:\n  max_committed_spend: "${((committed - 10_000) / 1_000_000).toFixed(2)}"\n`);
    log.reset();
    const plan = await expectCode(ws.plan(), 1);
    expect(plan.stdout).toMatch(/error +max_committed_spend +account +\d+\.\d{2} USD committed +limit \d+\.\d{2} USD/);
    await expectCode(ws.apply(), 1);
    expect(log.writes()).toEqual([]);
    guardrails(`guardrails:\n  max_committed_spend: "${(committed / 1_000_000).toFixed(2)}"\n`);
    await expectCode(ws.apply(), 0);
    await expectNoChanges();
    noGuardrails();
  });
});
