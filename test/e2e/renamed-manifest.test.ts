/**
 * Renaming an account's file does not orphan the account (issue: moving `brand-eu.yaml` to
 * `eu/brand-europe.yaml` planned creates for a new account while the old one was neither shown nor
 * destroyed). An account adsctl created is known by its file until the manifest names its id;
 * when the file moves, the plan names the state nobody's manifest owns, with the account id and
 * how to adopt it; once the moved manifest names the id, its state is found by the id, and the
 * next apply keeps it under the new key.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, expectRuns, parseStateList, stepsInOrder, type Workspace } from '../support/e2e.js';

let emulator: RunningEmulator;
let ws: Workspace;
let accountId: string;

const manifest = (endpoint: string, id?: string): string => `version: 1
endpoint: ${endpoint}
account:
${id === undefined ? '  name: Brand EU' : `  id: "${id}"\n  name: Brand EU`}
funding_instruments:
  card: { type: CREDIT_CARD, currency: EUR, start_time: 2026-01-01T00:00:00Z }
campaigns:
  launch:
    name: Launch EU
    funding_instrument: card
    daily_budget: "5.00"
    entity_status: PAUSED
`;

const adsctl = expectRuns(() => ws);

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  ws = createWorkspace(emulator.info, '');
  rmManifest();
  writeFileSync(join(ws.dir, 'brand-eu.yaml'), manifest(emulator.info.base_url));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

function rmManifest(): void {
  if (existsSync(ws.manifest)) renameSync(ws.manifest, join(ws.dir, 'unused.yml.off'));
}

describe('an account whose manifest moves', () => {
  it('is created under the name of its file', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    const listed = await adsctl(['state', 'list'], 0);
    expect(parseStateList(listed.stdout).get('campaigns.launch')).toBeDefined();
    accountId = parseStateList(listed.stdout).get('account')!;
    expect(accountId).toMatch(/^\w+$/);
  });

  it('after a move, the plan names the orphaned state and how to adopt it', async () => {
    mkdirSync(join(ws.dir, 'eu'));
    renameSync(join(ws.dir, 'brand-eu.yaml'), join(ws.dir, 'eu', 'brand-europe.yaml'));
    const plan = await adsctl(['plan'], 0);
    const output = plan.stdout + plan.stderr;
    expect(output).toContain('orphaned-state');
    expect(output).toContain(`account ${accountId}`);
    expect(output).toContain('brand-eu.yaml');
    expect(output).toContain(`id: "${accountId}"`);
  });

  it('once the moved manifest names the id, its state is found: no changes, and apply keeps it under the id', async () => {
    writeFileSync(join(ws.dir, 'eu', 'brand-europe.yaml'), manifest(emulator.info.base_url, accountId));
    const plan = await adsctl(['plan', '--detailed-exitcode'], 0);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stdout + plan.stderr).not.toContain('orphaned-state');
    await adsctl(['apply', '--auto-approve'], 0);
    const files = readdirSync(join(ws.dir, '.adsctl', 'state')).filter((f) => f.endsWith('.json'));
    expect(files).toEqual([`${accountId}.json`]);
    expect(parseStateList((await adsctl(['state', 'list'], 0)).stdout).get('campaigns.launch')).toBeDefined();
  });
});
