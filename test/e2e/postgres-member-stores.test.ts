/**
 * With the state in PostgreSQL, the members last uploaded live there too (a table of member store
 * bytes: digests only, naming their audience), so a second working copy — a fresh checkout, another
 * CI runner — takes people out of an audience exactly as the first would, checked in the
 * emulator's data; none of them is on disk in either copy. `state migrate` carries the stores from
 * local files into the database.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { memberCounts } from '../support/audiences.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';
import { freshDatabase } from '../support/postgres.js';

const POSTGRES_CONFIG = 'state:\n  backend: postgres\n  connection_string_env: TEAM_STATE_URL\n';

let emulator: RunningEmulator;
let client: TestClient;
const workspaces: Workspace[] = [];

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
});
afterAll(async () => {
  await emulator.close();
  for (const ws of workspaces) ws.remove();
});

const emails = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}-${i}@example.com`);
const csv = (list: readonly string[]): string => ['email', ...list].join('\n') + '\n';

/** A working copy of one audience's repository; its state in the database at `url` when given. */
function copy(name: string, url?: string): Workspace {
  const ws = createWorkspace(emulator.info, `${seededAccountHead(emulator.info.base_url)}custom_audiences:\n  crm:\n    name: ${name}\n    users: { file: members.csv }\n`);
  workspaces.push(ws);
  if (url !== undefined) {
    writeFileSync(join(ws.dir, 'adsctl.yaml'), POSTGRES_CONFIG);
    ws.env['TEAM_STATE_URL'] = url;
  }
  return ws;
}

const noStoreFiles = (ws: Workspace): boolean => {
  const dir = join(ws.dir, '.adsctl', 'state');
  return !existsSync(dir) || readdirSync(dir).filter((d) => d.endsWith('.members')).every((d) => readdirSync(join(dir, d)).length === 0);
};

async function run(ws: Workspace, args: string[], code: number): Promise<string> {
  const r = await ws.run(args);
  expect(r.code, `adsctl ${args.join(' ')}\n${transcript(r)}`).toBe(code);
  return r.stdout + r.stderr;
}

async function rows(url: string): Promise<Buffer[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query<{ members: Buffer }>('SELECT members FROM adsctl.member_stores')).rows.map((r) => r.members);
  } finally {
    await db.end();
  }
}

it('a second working copy takes removed people out: the members last uploaded are in the database', async () => {
  const url = await freshDatabase('member_stores');
  const first = copy('E2E PG members', url);
  writeFileSync(join(first.dir, 'members.csv'), csv(emails(150, 'pg')));
  await run(first, ['apply', '--auto-approve'], 0);
  const id = parseStateList(await run(first, ['state', 'list'], 0)).get('custom_audiences.crm')!;
  expect((await memberCounts(client, id)).members).toBe(150);
  expect(noStoreFiles(first)).toBe(true);
  const stored = await rows(url);
  expect(stored).toHaveLength(1);
  expect(stored[0]!.includes('@example.com')).toBe(false);

  const second = copy('E2E PG members', url);
  writeFileSync(join(second.dir, 'members.csv'), csv(emails(150, 'pg').slice(30)));
  expect(await run(second, ['plan'], 0)).toContain('−30 members');
  await run(second, ['apply', '--auto-approve'], 0);
  expect((await memberCounts(client, id)).members).toBe(120);
  expect(await run(second, ['plan', '--detailed-exitcode'], 0)).toContain('No changes.');

  // the audience deleted: its members last uploaded go with it
  second.write(seededAccountHead(emulator.info.base_url));
  await run(second, ['apply', '--auto-approve'], 0);
  expect(await rows(url)).toHaveLength(0);
});

it('state migrate carries the member stores from local files into the database', async () => {
  const url = await freshDatabase('member_stores_migrate');
  const ws = copy('E2E PG migrate members');
  writeFileSync(join(ws.dir, 'members.csv'), csv(emails(150, 'mig')));
  await run(ws, ['apply', '--auto-approve'], 0);
  const id = parseStateList(await run(ws, ['state', 'list'], 0)).get('custom_audiences.crm')!;
  writeFileSync(join(ws.dir, 'adsctl.yaml'), POSTGRES_CONFIG);
  ws.env['TEAM_STATE_URL'] = url;
  expect(await run(ws, ['state', 'migrate', '--from', 'local'], 0)).toContain('1 member store');
  expect(await rows(url)).toHaveLength(1);

  const other = copy('E2E PG migrate members', url);
  writeFileSync(join(other.dir, 'members.csv'), csv(emails(150, 'mig').slice(40)));
  await run(other, ['apply', '--auto-approve'], 0);
  expect((await memberCounts(client, id)).members).toBe(110);
});
