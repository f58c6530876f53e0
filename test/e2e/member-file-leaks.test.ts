/**
 * What a member file may hold never leaves it through a message: a header cell that is not an
 * identifier type (often an identifier itself, from a file without header) is named by its column
 * in the text and the JSON plan; a file that is not UTF-8 (a Latin-1 export) is refused at its
 * first bad byte instead of being hashed into identifiers nobody has; a file whose lines end in
 * CR alone is read as any other, and the emulator ends with its members. Partner user ids, which
 * the service takes as written, are kept in the member store as hashes like every identifier; a
 * plan that would take one out, which needs its value, refuses and says so.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { memberCounts } from '../support/audiences.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

const emails = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}-${i}@example.com`);

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, `${seededAccountHead(emulator.info.base_url)}custom_audiences:\n  crm:\n    name: E2E member file leaks\n    users: { file: members.csv }\n`);
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});

it('names a bad header cell by its column, in text and JSON', async () => {
  writeFileSync(join(ws.dir, 'members.csv'), ['email,private.person@example.com', ...emails(150, 'm').map((e) => `${e},`)].join('\n') + '\n');
  for (const args of [['plan'], ['plan', '--json']]) {
    const run = await ws.run(args);
    expect(run.code, transcript(run)).toBe(1);
    expect(run.stdout + run.stderr).toContain('column 2 of the header names no identifier type');
    expect(run.stdout + run.stderr).not.toContain('private.person');
  }
});

it('refuses a Latin-1 file at its first bad byte, sending nothing', async () => {
  writeFileSync(join(ws.dir, 'members.csv'), Buffer.from(['email', ...emails(150, 'm'), 'ren\xe9@example.com'].join('\n') + '\n', 'latin1'));
  const run = await ws.run(['apply', '--auto-approve']);
  expect(run.code, transcript(run)).toBe(1);
  expect(run.stdout + run.stderr).toMatch(/error audience-file-encoding: the member file members\.csv is not UTF-8: byte \d+ \(on line 152\) is not valid UTF-8; save the file as UTF-8/);
  expect((await ws.run(['state', 'list'])).stdout).not.toContain('custom_audiences.crm');
});

it('reads a file whose lines end in CR alone', async () => {
  writeFileSync(join(ws.dir, 'members.csv'), ['email', ...emails(150, 'm')].join('\r') + '\r');
  const apply = await ws.run(['apply', '--auto-approve']);
  expect(apply.code, transcript(apply)).toBe(0);
  const id = parseStateList((await ws.run(['state', 'list'])).stdout).get('custom_audiences.crm')!;
  expect((await memberCounts(client, id)).members).toBe(150);
  const plan = await ws.run(['plan', '--detailed-exitcode']);
  expect(plan.code, transcript(plan)).toBe(0);
});

it('keeps partner ids in the member store as hashes only, and refuses a removal it cannot send', async () => {
  const partners = Array.from({ length: 120 }, (_, i) => `CRM-SECRET-${1000 + i}`);
  writeFileSync(join(ws.dir, 'members.csv'), ['email,partner_user_id', ...emails(150, 'm').map((e, i) => `${e},${partners[i] ?? ''}`)].join('\n') + '\n');
  const apply = await ws.run(['apply', '--auto-approve']);
  expect(apply.code, transcript(apply)).toBe(0);
  const id = parseStateList((await ws.run(['state', 'list'])).stdout).get('custom_audiences.crm')!;
  expect((await memberCounts(client, id)).members).toBe(270);
  const stateDir = join(ws.dir, '.adsctl', 'state');
  const stores = readdirSync(stateDir).filter((d) => d.endsWith('.members')).flatMap((d) => readdirSync(join(stateDir, d)).map((f) => readFileSync(join(stateDir, d, f))));
  expect(stores).toHaveLength(1);
  expect(stores[0]!.includes('CRM-SECRET')).toBe(false);

  writeFileSync(join(ws.dir, 'members.csv'), ['email,partner_user_id', ...emails(150, 'm').map((e, i) => `${e},${i < 100 ? partners[i] : ''}`)].join('\n') + '\n');
  const plan = await ws.run(['plan']);
  expect(plan.code, transcript(plan)).toBe(1);
  expect(plan.stdout + plan.stderr).toMatch(/error members-partner-removed: custom_audiences\.crm\.users: 20 partner_user_id members were taken out of members\.csv/);
  expect(plan.stdout + plan.stderr).not.toContain('CRM-SECRET');
  expect((await memberCounts(client, id)).members).toBe(270);
});

