/**
 * An agency's directory of account manifests applied in one run, with the real CLI against the
 * real emulator: the accounts are applied at once, every progress line and error names its
 * account, one account the service refuses does not stop the others, and the end says per
 * account what happened and which accounts failed (exit 1). The next run applies only what is
 * left. Requests in flight stay within --parallelism for the whole run, however many accounts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, transcript, type Workspace } from '../support/e2e.js';
import type { CliRun } from '../support/run-cli.js';

/** A seeded user the service refuses to promote, and one it promotes. */
const INELIGIBLE = '1000000000000000001';
const ELIGIBLE = '783214';

function manifest(endpoint: string, name: string, promoted: string): string {
  return `version: 1
endpoint: ${endpoint}
account:
  name: ${name}
funding_instruments:
  card: { type: CREDIT_CARD, currency: USD, start_time: 2026-01-01T00:00:00Z }
campaigns:
  brand:
    name: ${name} brand
    funding_instrument: card
    daily_budget: "10.00"
    entity_status: PAUSED
    line_items:
      posts:
        name: ${name} posts
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_strategy: AUTO
        start_time: 2027-03-01T00:00:00Z
        promoted_posts: ["1346184843436720128"]
  growth:
    name: ${name} growth
    funding_instrument: card
    daily_budget: "10.00"
    entity_status: PAUSED
    line_items:
      followers:
        name: ${name} followers
        product_type: PROMOTED_ACCOUNT
        objective: FOLLOWERS
        placements: [ALL_ON_SERVICE]
        bid_strategy: AUTO
        start_time: 2027-03-01T00:00:00Z
        promoted_accounts: ["${promoted}"]
`;
}

const CLIENTS = ['alpine', 'coastal', 'desert', 'forest', 'urban'];
const BROKEN = 'desert';

let emulator: RunningEmulator;
let ws: Workspace;

async function adsctl(args: string[], code: number): Promise<CliRun> {
  const run = await ws.run(args);
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  return run;
}

beforeAll(async () => {
  ({ emulator } = await startTestEmulator({ latencyMs: 5 }));
  ws = createWorkspace(emulator.info, '');
  mkdirSync(join(ws.dir, 'accounts'));
  for (const name of CLIENTS) writeFileSync(join(ws.dir, 'accounts', `${name}.yaml`), manifest(emulator.info.base_url, name, name === BROKEN ? INELIGIBLE : ELIGIBLE));
  writeFileSync(ws.manifest, '');
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});

describe('an agency of five accounts in one run', () => {
  it('applies them at once; the one the service refuses fails alone, named, and the next run finishes nothing twice', async () => {
    const run = await adsctl(['apply', 'accounts', '--auto-approve', '--parallelism', '3'], 1);
    // each step line and each error names its account
    for (const name of CLIENTS) expect(run.stderr).toMatch(new RegExp(`\\] ${name}\\.yaml: create 2 campaigns`));
    expect(run.stderr).toMatch(new RegExp(`\\nError: ${BROKEN}\\.yaml: campaigns\\.growth\\.line_items\\.followers\\.promoted_accounts\\["${INELIGIBLE}"\\]: [^\\n]*INVALID_USER`));
    // per account, what happened; then the total, and which accounts failed
    expect(run.stderr).toContain('\nAccounts:\n');
    for (const name of CLIENTS.filter((n) => n !== BROKEN)) expect(run.stderr).toContain(`  ${name}.yaml: complete; 8 added, 0 changed, 0 destroyed\n`);
    expect(run.stderr).toContain(`  ${BROKEN}.yaml: failed (1 error); 7 added, 0 changed, 0 destroyed\n`);
    expect(run.stderr).toContain('Apply failed: 1 error; 39 added, 0 changed, 0 destroyed.\n');
    expect(run.stderr).toMatch(/Failed accounts \(1 of 5\): desert\.yaml\.\n$/);
    // five accounts at once, and never more than --parallelism requests in flight among them
    expect(emulator.stats.maxInFlight).toBeGreaterThan(1);
    expect(emulator.stats.maxInFlight).toBeLessThanOrEqual(3);

    // the accounts that succeeded have nothing left; the failed one only its refused promotion
    const plan = await adsctl(['plan', 'accounts', '--detailed-exitcode'], 2);
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    expect(plan.stdout).toContain(`promoted_accounts["${INELIGIBLE}"] will be created`);
  });
});
