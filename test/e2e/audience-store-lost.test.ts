/**
 * Members are never guessed: for each way the members last uploaded go missing, wrong or moved —
 * the store deleted, damaged, two audiences' stores swapped, an audience moved with `state mv` —
 * people taken out of the member file are taken out of the audience in the end, checked in the
 * emulator's data (its control endpoint counts each audience's members). Where the plan cannot
 * know what was uploaded it refuses the audience at its member file and sends nothing; where the
 * file is what was last uploaded (the state records its hash) it writes the store again and sends
 * nothing. No message names a member.
 *
 * One workspace holds one audience per way (each store is a file of its own, named by the
 * audience's id, and names the audience it belongs to), so one plan and one apply see every way at
 * once; the audiences left alone at each step are checked to keep their members too. The steps
 * build on each other.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { memberCounts } from '../support/audiences.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, seededAccountHead, stepsInOrder, transcript, type Workspace } from '../support/e2e.js';

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
});
afterAll(async () => {
  await emulator.close();
  ws?.remove();
});

stepsInOrder();

/** The audiences of the workspace, by key: one for each way its store goes missing, wrong or moved. */
const NAMES = {
  deleted: 'E2E store deleted',
  damaged: 'E2E store damaged',
  first: 'E2E store swapped one',
  second: 'E2E store swapped two',
  dropped: 'E2E store dropped',
  before: 'E2E store moved',
} as const;
type Key = keyof typeof NAMES;
/** The audiences whose stores are lost or wrong while their member files lose 30 people. */
const EDITED = ['deleted', 'damaged', 'first'] as const;

const emails = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}-${i}@example.com`);
const csv = (list: readonly string[]): string => ['email', ...list].join('\n') + '\n';

/**
 * A manifest of audiences, each `key: name` with its member file `<key>.csv`, the keys in
 * `noUsers` without their users section; `renamed` gives an audience another key (its file keeps
 * the new key's name).
 */
function manifest(options: { noUsers?: readonly string[]; renamed?: Partial<Record<Key, string>> } = {}): string {
  const entries = Object.entries(NAMES).map(([key, name]) => {
    const at = options.renamed?.[key as Key] ?? key;
    const users = options.noUsers?.includes(at) === true ? '' : `    users: { file: ${at}.csv }\n`;
    return `  ${at}:\n    name: ${name}\n${users}`;
  });
  return `${seededAccountHead(emulator.info.base_url)}custom_audiences:\n${entries.join('')}`;
}
/** The manifest once `before` was moved to `after` (the step below). */
const movedManifest = (noUsers: readonly string[] = []): string => manifest({ renamed: { before: 'after' }, noUsers });

/** The audiences' ids, by key (the moved one under its first key). */
const ids = new Map<Key, string>();
const id = (key: Key): string => ids.get(key)!;

/** Writes `key`'s member file: its 150 members, less the first `less`. */
const writeMembers = (key: string, less = 0, file = key): void => writeFileSync(join(ws.dir, `${file}.csv`), csv(emails(150, `${key}-member`).slice(less)));

/** The member store file of the audience `key` (it names the audience's id). */
function storeOf(key: Key): string {
  const dir = join(ws.dir, '.adsctl', 'state');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.members'))
    .flatMap((d) => readdirSync(join(dir, d)).map((f) => join(dir, d, f)));
  const named = files.filter((f) => readFileSync(f).includes(`"id":"${id(key)}"`));
  expect(named, `the store of ${key} among ${files.join(', ')}`).toHaveLength(1);
  return named[0]!;
}

/** What each audience holds when a step leaves it alone: its 150 members (120 once moved). */
const steady: Record<Key, number> = { deleted: 150, damaged: 150, first: 150, second: 150, dropped: 150, before: 150 };

/** The audiences hold the members given (by key), every other one its `steady` count, in the emulator. */
async function expectMembers(expected: Partial<Record<Key, number>>): Promise<void> {
  const held: Partial<Record<Key, number>> = {};
  for (const key of Object.keys(NAMES) as Key[]) held[key] = (await memberCounts(client, id(key))).members;
  expect(held).toEqual({ ...steady, ...expected });
}

/** What a plan's output says of `key`'s members (the block under its heading). */
const planOf = (stdout: string, key: Key): string => stdout.split('  # ').find((block) => block.startsWith(`custom_audiences.${key}.users `)) ?? '';

/** Applies, checks the audiences hold `members` (the rest unchanged), and a plan finds nothing to do. */
async function expectHeld(members: Partial<Record<Key, number>>): Promise<void> {
  const apply = await ws.run(['apply', '--auto-approve']);
  expect(apply.code, transcript(apply)).toBe(0);
  await expectMembers(members);
  const plan = await ws.run(['plan', '--detailed-exitcode']);
  expect(plan.code, transcript(plan)).toBe(0);
}

describe('the members last uploaded, lost or wrong', () => {
  it('six audiences are applied, each with 150 members, each store naming its audience', async () => {
    ws = createWorkspace(emulator.info, manifest());
    for (const key of Object.keys(NAMES)) writeMembers(key);
    const apply = await ws.run(['apply', '--auto-approve']);
    expect(apply.code, transcript(apply)).toBe(0);
    const list = parseStateList((await ws.run(['state', 'list'])).stdout);
    for (const key of Object.keys(NAMES) as Key[]) ids.set(key, list.get(`custom_audiences.${key}`)!);
    expect(new Set(ids.values()).size).toBe(6);
    await expectMembers({});
    for (const key of Object.keys(NAMES) as Key[]) storeOf(key);
  });

  it('an audience moved with state mv keeps its members last uploaded: removals still go out', async () => {
    const mv = await ws.run(['state', 'mv', 'custom_audiences.before', 'custom_audiences.after']);
    expect(mv.code, transcript(mv)).toBe(0);
    ws.write(movedManifest());
    renameSync(join(ws.dir, 'before.csv'), join(ws.dir, 'after.csv'));
    writeMembers('before', 30, 'after');
    const plan = await ws.run(['plan']);
    expect(plan.code, transcript(plan)).toBe(0);
    expect(plan.stdout).toContain('−30 members');
    await expectHeld({ before: 120 });
    steady.before = 120;
  });

  it('a deleted store, a damaged one, two swapped, and a deleted one whose users section is removed: the plan refuses each audience at its member file, naming no member; an apply sends nothing', async () => {
    // deleted
    rmSync(storeOf('deleted'));
    // damaged: never read as the members last uploaded
    const damaged = storeOf('damaged');
    const bytes = readFileSync(damaged);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    writeFileSync(damaged, bytes);
    // swapped: each store names its audience, so neither is taken for the other's
    const [a, b] = [storeOf('first'), storeOf('second')];
    renameSync(a, `${a}.aside`);
    renameSync(b, a);
    renameSync(`${a}.aside`, b);
    // deleted, then the users section removed: the removal is refused, not sent as taking out no one
    rmSync(storeOf('dropped'));
    ws.write(movedManifest(['dropped']));
    for (const key of EDITED) writeMembers(key, 30);

    const plan = await ws.run(['plan', '--detailed-exitcode']);
    expect(plan.code, transcript(plan)).toBe(1);
    const said = plan.stdout + plan.stderr;
    for (const key of EDITED) {
      expect(said, transcript(plan)).toMatch(new RegExp(`account\\.yaml:\\d+:\\d+: error members-unknown: custom_audiences\\.${key}\\.users: the members last uploaded are not known`));
    }
    expect(said.split('put back the member file as it was last uploaded (150 members').length - 1, transcript(plan)).toBe(EDITED.length);
    expect(said).toMatch(/error members-unknown: custom_audiences\.dropped\.users: its removal would take out the members last uploaded, and they are not known/);
    expect(said).not.toMatch(/members-unknown: custom_audiences\.(second|after)\./);
    // the other of the swapped pair: its file is what was last uploaded, so its store is written again
    expect(planOf(plan.stdout, 'second'), transcript(plan)).toContain('the member store written again');
    expect(said).not.toContain('@example.com');

    const apply = await ws.run(['apply', '--auto-approve']);
    expect(apply.code, transcript(apply)).toBe(1);
    expect(apply.stdout + apply.stderr).not.toContain('@example.com');
    await expectMembers({});
  });

  it('the remedy the refusals name: the files as last uploaded are applied (the stores are written again, nothing sent), then the edits go out', async () => {
    for (const key of EDITED) writeMembers(key);
    ws.write(movedManifest());
    const plan = await ws.run(['plan', '--detailed-exitcode']);
    expect(plan.code, transcript(plan)).toBe(2);
    for (const key of ['deleted', 'damaged', 'first', 'second', 'dropped'] as const) expect(planOf(plan.stdout, key), transcript(plan)).toContain('the member store written again');
    expect(plan.stdout).toContain('0 writes planned');
    await expectHeld({});

    for (const key of EDITED) writeMembers(key, 30);
    ws.write(movedManifest(['dropped']));
    await expectHeld({ deleted: 120, damaged: 120, first: 120, dropped: 0 });
  });
});
