/**
 * Issue 18, audiences: the service targets a custom audience only once it matches at least 100
 * users, and refused the criterion at apply, after other writes went out (an audience whose file
 * had 50 identifiers was accepted by `plan`). Now the plan refuses with `audience-too-small` at the
 * criterion's position, and apply writes nothing: for a new audience from a 50-line CSV, and for a
 * live audience of 50 members the service reports TOO_SMALL, targeted by its id. Once that
 * audience holds 150 members the same manifest applies, and plans clean.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { emails, filledAudience, hashes, uploadUsers, usersOp } from '../support/audiences.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, listAll, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';
import { distinctIdentifiers, memberCsv, people, seededRandom } from '../support/member-files.js';

const ACCOUNT = '18ce54d4x5t';
const A = `/12/accounts/${ACCOUNT}`;

let emulator: RunningEmulator;
let client: TestClient;
const workspaces: Workspace[] = [];

/** A paused campaign with one line item whose targeting is `criterion`, after `head`. */
const manifest = (head: string, criterion: string): string => `${seededAccountHead(emulator.info.base_url)}${head}campaigns:
  retarget:
    name: Retarget
    funding_instrument: main
    daily_budget: "10.00"
    entity_status: PAUSED
    line_items:
      buyers:
        name: Buyers
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount: "1.50"
        start_time: 2027-01-01T00:00:00Z
        entity_status: PAUSED
        targeting:
          - ${criterion}
`;

/** `file:line:col` of the first occurrence of `needle` in `text` (1-based, as diagnostics print it). */
function positionOf(text: string, needle: string): string {
  const offset = text.indexOf(needle);
  expect(offset, needle).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, offset).split('\n');
  return `account.yaml:${before.length}:${before.at(-1)!.length + 1}`;
}

/** Write requests the emulator has served so far, to any surface but its own controls. */
async function writes(): Promise<number> {
  const res = await request(`${emulator.info.base_url}/_emulator/stats`);
  const stats = (await res.body.json()) as { byMethod: Record<string, number> };
  return ['POST', 'PUT', 'DELETE'].reduce((n, method) => n + (stats.byMethod[method] ?? 0), 0);
}

/** What the account holds of the kinds these manifests would write. */
const holdings = async (): Promise<Record<string, number>> => ({
  campaigns: (await listAll(client, `${A}/campaigns`, { with_draft: true })).length,
  line_items: (await listAll(client, `${A}/line_items`, { with_draft: true })).length,
  custom_audiences: (await listAll(client, `${A}/custom_audiences`)).length,
});

/** Plan and apply of `ws` both stop with `audience-too-small` at `position`, and nothing is written. */
async function refusedAt(ws: Workspace, position: string): Promise<void> {
  const before = { writes: await writes(), holdings: await holdings() };
  const plan = await ws.run(['plan', '--no-color']);
  expect(plan.code, transcript(plan)).toBe(1);
  expect(plan.stdout + plan.stderr).toContain(`${position}: error audience-too-small: campaigns.retarget.line_items.buyers.targeting[`);
  const apply = await ws.run(['apply', '--auto-approve', '--no-color']);
  expect(apply.code, transcript(apply)).toBe(1);
  expect(apply.stdout + apply.stderr).toContain(`${position}: error audience-too-small:`);
  expect(apply.stdout + apply.stderr).not.toContain('Apply complete!');
  expect(await writes()).toBe(before.writes);
  expect(await holdings()).toEqual(before.holdings);
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
});
afterAll(async () => {
  await emulator.close();
  for (const ws of workspaces) ws.remove();
});

describe('a targeted audience too small to target', () => {
  it('a new audience from a 50-line CSV: plan and apply refuse at the criterion, nothing is written', async () => {
    const criterion = '{ targeting_type: CUSTOM_AUDIENCE, custom_audience: small }';
    const text = manifest('custom_audiences:\n  small:\n    name: Small list\n    users: { file: data/small.csv }\n', criterion);
    const ws = createWorkspace(emulator.info, text);
    workspaces.push(ws);
    mkdirSync(join(ws.dir, 'data'));
    const fifty = people(seededRandom(18), 50, 'small', 0);
    expect(distinctIdentifiers(fifty).size).toBe(50);
    writeFileSync(join(ws.dir, 'data', 'small.csv'), memberCsv(fifty));

    await refusedAt(ws, positionOf(text, criterion));
    const plan = await ws.run(['plan', '--no-color']);
    expect(plan.stdout + plan.stderr).toContain('targets custom_audiences.small, whose member file data/small.csv holds 50 valid distinct identifiers: the service targets a custom audience only once it matches at least 100 users');

    // 150 people: the plan takes the same manifest
    writeFileSync(join(ws.dir, 'data', 'small.csv'), memberCsv(people(seededRandom(18), 150, 'small', 0)));
    const grown = await ws.run(['plan', '--no-color', '--detailed-exitcode']);
    expect(grown.code, transcript(grown)).toBe(2);
    expect(grown.stdout + grown.stderr).not.toContain('audience-too-small');
  });

  it('a live audience of 50 members targeted by its id: refused until it holds 150, then applied and planned clean', async () => {
    const audience = await filledAudience(client, ACCOUNT, 50, 'Fifty members');
    const listed = (await listAll(client, `${A}/custom_audiences`, { custom_audience_ids: audience.id }))[0];
    expect(listed).toMatchObject({ targetable: false, reasons_not_targetable: ['TOO_SMALL'] });
    const criterion = `{ targeting_type: CUSTOM_AUDIENCE, targeting_value: "${audience.id}" }`;
    const text = manifest('', criterion);
    const ws = createWorkspace(emulator.info, text);
    workspaces.push(ws);

    await refusedAt(ws, positionOf(text, `"${audience.id}"`));
    const plan = await ws.run(['plan', '--no-color']);
    expect(plan.stdout + plan.stderr).toContain(`targets custom audience ${audience.id} ("Fifty members"), which the service reports not targetable (TOO_SMALL), and this plan uploads no members to it`);

    const more = await uploadUsers(client, ACCOUNT, audience.id, [usersOp('Update', emails(hashes(100, `more-${audience.id}`)))]);
    expect(more.status, more.text).toBe(200);
    const apply = await ws.run(['apply', '--auto-approve', '--no-color']);
    expect(apply.code, transcript(apply)).toBe(0);
    expect(apply.stdout).toContain('Apply complete!');
    const lineItems = await listAll(client, `${A}/line_items`, { with_draft: true });
    const buyers = lineItems.find((l) => l['name'] === 'Buyers');
    expect(buyers).toBeDefined();
    const criteria = await listAll(client, `${A}/targeting_criteria`, { line_item_ids: String(buyers!['id']) });
    expect(criteria.map((c) => `${c['targeting_type']}:${c['targeting_value']}`)).toEqual([`CUSTOM_AUDIENCE:${audience.id}`]);
    const again = await ws.run(['plan', '--no-color', '--detailed-exitcode']);
    expect(again.code, transcript(again)).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });
});
