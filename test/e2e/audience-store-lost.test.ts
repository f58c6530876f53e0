/**
 * Members are never guessed: for each way the members last uploaded go missing, wrong or moved —
 * the store deleted, damaged, two audiences' stores swapped, an audience moved with `state mv` —
 * people taken out of the member file are taken out of the audience in the end, checked in the
 * emulator's data (its control endpoint counts each audience's members). Where the plan cannot
 * know what was uploaded it refuses the audience at its member file and sends nothing; where the
 * file is what was last uploaded (the state records its hash) it writes the store again and sends
 * nothing. No message names a member.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { memberCounts } from '../support/audiences.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';

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

/** A manifest of audiences, each `key: name` with its member file `<key>.csv`. */
const manifest = (audiences: Record<string, string>): string =>
  `${seededAccountHead(emulator.info.base_url)}custom_audiences:\n` + Object.entries(audiences).map(([key, name]) => `  ${key}:\n    name: ${name}\n    users: { file: ${key}.csv }\n`).join('');

/** A workspace whose audiences were applied, each with 150 members; and their ids. */
async function applied(audiences: Record<string, string>): Promise<{ ws: Workspace; ids: Map<string, string> }> {
  const ws = createWorkspace(emulator.info, manifest(audiences));
  workspaces.push(ws);
  for (const key of Object.keys(audiences)) writeFileSync(join(ws.dir, `${key}.csv`), csv(emails(150, `${key}-member`)));
  const apply = await ws.run(['apply', '--auto-approve']);
  expect(apply.code, transcript(apply)).toBe(0);
  const list = parseStateList((await ws.run(['state', 'list'])).stdout);
  const ids = new Map(Object.keys(audiences).map((key) => [key, list.get(`custom_audiences.${key}`)!]));
  for (const id of ids.values()) expect((await memberCounts(client, id)).members).toBe(150);
  return { ws, ids };
}

/** The member store files of the workspace (one folder per account). */
function storeFiles(ws: Workspace): string[] {
  const dir = join(ws.dir, '.adsctl', 'state');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.members'))
    .flatMap((d) => readdirSync(join(dir, d)).map((f) => join(dir, d, f)));
}

/** Takes the first 30 people out of `key`'s member file. */
const removeThirty = (ws: Workspace, key: string): void => writeFileSync(join(ws.dir, `${key}.csv`), csv(emails(150, `${key}-member`).slice(30)));

/** A plan refuses `key`'s audience at its member file, naming no member. */
async function expectRefused(ws: Workspace, key: string): Promise<void> {
  const plan = await ws.run(['plan', '--detailed-exitcode']);
  expect(plan.code, transcript(plan)).toBe(1);
  const said = plan.stdout + plan.stderr;
  expect(said).toMatch(new RegExp(`account\\.yaml:\\d+:\\d+: error members-unknown: custom_audiences\\.${key}\\.users: the members last uploaded are not known`));
  expect(said).toContain('put back the member file as it was last uploaded (150 members');
  expect(plan.stdout + plan.stderr).not.toContain('@example.com');
  const apply = await ws.run(['apply', '--auto-approve']);
  expect(apply.code, transcript(apply)).toBe(1);
}

/** Applies, checks the audience holds `members`, and a plan finds nothing to do. */
async function expectHeld(ws: Workspace, id: string, members: number): Promise<void> {
  const apply = await ws.run(['apply', '--auto-approve']);
  expect(apply.code, transcript(apply)).toBe(0);
  expect((await memberCounts(client, id)).members).toBe(members);
  const plan = await ws.run(['plan', '--detailed-exitcode']);
  expect(plan.code, transcript(plan)).toBe(0);
}

/** The remedy the refusal names: the file as last uploaded, applied (the store is written again, nothing sent), then the edit. */
async function putBackThenEdit(ws: Workspace, key: string, id: string): Promise<void> {
  writeFileSync(join(ws.dir, `${key}.csv`), csv(emails(150, `${key}-member`)));
  const plan = await ws.run(['plan', '--detailed-exitcode']);
  expect(plan.code, transcript(plan)).toBe(2);
  expect(plan.stdout).toContain('the member store written again');
  await expectHeld(ws, id, 150);
  removeThirty(ws, key);
  await expectHeld(ws, id, 120);
}

describe('the members last uploaded, lost or wrong', () => {
  it('a deleted store: the plan refuses the audience, sends nothing; the remedy ends with the removed people out', async () => {
    const { ws, ids } = await applied({ deleted: 'E2E store deleted' });
    for (const f of storeFiles(ws)) rmSync(f);
    removeThirty(ws, 'deleted');
    await expectRefused(ws, 'deleted');
    expect((await memberCounts(client, ids.get('deleted')!)).members).toBe(150);
    await putBackThenEdit(ws, 'deleted', ids.get('deleted')!);
  });

  it('a damaged store: refused the same way, never read as the members last uploaded', async () => {
    const { ws, ids } = await applied({ damaged: 'E2E store damaged' });
    const [file] = storeFiles(ws);
    const bytes = readFileSync(file!);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    writeFileSync(file!, bytes);
    removeThirty(ws, 'damaged');
    await expectRefused(ws, 'damaged');
    expect((await memberCounts(client, ids.get('damaged')!)).members).toBe(150);
    await putBackThenEdit(ws, 'damaged', ids.get('damaged')!);
  });

  it("two audiences' stores swapped: each store names its audience, so neither is taken for the other's", async () => {
    const { ws, ids } = await applied({ first: 'E2E store swapped one', second: 'E2E store swapped two' });
    const [a, b] = storeFiles(ws);
    renameSync(a!, `${a}.aside`);
    renameSync(b!, a!);
    renameSync(`${a}.aside`, b!);
    removeThirty(ws, 'first');
    await expectRefused(ws, 'first');
    expect((await memberCounts(client, ids.get('first')!)).members).toBe(150);
    await putBackThenEdit(ws, 'first', ids.get('first')!);
    expect((await memberCounts(client, ids.get('second')!)).members).toBe(150);
  });

  it('an audience moved with state mv keeps its members last uploaded: removals still go out', async () => {
    const { ws, ids } = await applied({ before: 'E2E store moved' });
    const mv = await ws.run(['state', 'mv', 'custom_audiences.before', 'custom_audiences.after']);
    expect(mv.code, transcript(mv)).toBe(0);
    ws.write(manifest({ after: 'E2E store moved' }));
    renameSync(join(ws.dir, 'before.csv'), join(ws.dir, 'after.csv'));
    writeFileSync(join(ws.dir, 'after.csv'), csv(emails(150, 'before-member').slice(30)));
    const plan = await ws.run(['plan']);
    expect(plan.code, transcript(plan)).toBe(0);
    expect(plan.stdout).toContain('−30 members');
    await expectHeld(ws, ids.get('before')!, 120);
  });

  it('a deleted store, then the users section removed: the removal is refused, not sent as taking out no one', async () => {
    const { ws, ids } = await applied({ dropped: 'E2E store dropped' });
    for (const f of storeFiles(ws)) rmSync(f);
    ws.write(`${seededAccountHead(emulator.info.base_url)}custom_audiences:\n  dropped:\n    name: E2E store dropped\n`);
    const plan = await ws.run(['plan', '--detailed-exitcode']);
    expect(plan.code, transcript(plan)).toBe(1);
    expect(plan.stdout + plan.stderr).toMatch(/error members-unknown: custom_audiences\.dropped\.users: its removal would take out the members last uploaded, and they are not known/);
    expect((await memberCounts(client, ids.get('dropped')!)).members).toBe(150);
    // the remedy: the users section back with the file last uploaded (the store is written again), then the removal
    ws.write(manifest({ dropped: 'E2E store dropped' }));
    await expectHeld(ws, ids.get('dropped')!, 150);
    ws.write(`${seededAccountHead(emulator.info.base_url)}custom_audiences:\n  dropped:\n    name: E2E store dropped\n`);
    await expectHeld(ws, ids.get('dropped')!, 0);
  });
});

