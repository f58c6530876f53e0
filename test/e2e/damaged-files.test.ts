/**
 * Damaged files in the state directory, through the real CLI (issue 9, point 12): whatever is
 * wrong with them, a run never creates anything twice and never ends in a stack trace. A journal
 * damaged before its last line stops the run, naming the file and the line, and is never taken
 * for "nothing to recover"; a torn last line is a write that was never sent. State that parses
 * but has the wrong shape is refused, naming the file and the problem, and the lock is released.
 * A damaged lock file names a force-unlock command that works. Temporary files a kill left are
 * removed by the next run.
 *
 * The steps build on each other in one workspace: a killed apply, its journal damaged in each way
 * and refused, then repaired and finished; the state it leaves damaged in each way and refused,
 * then put back; its lock damaged in each way and removed; temporary files left beside it. A
 * refused run must change nothing, so after each one the state directory is checked to be byte
 * for byte what it was, and the next damage starts from the very files the last one did. The torn
 * last line needs a killed apply of its own, with an emulator of its own.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, resetRateLimits, stepsInOrder, transcript, waitUntil, type Workspace } from '../support/e2e.js';
import { fleetManifest, fleetProblems, type Fleet } from '../support/fleet.js';
import type { CliRun } from '../support/run-cli.js';
import { startAnswerGate } from './answer-gate.js';

const ACCOUNT = '18ce54d4x5t';
const FLEET: Fleet = { prefix: 'E2E Damaged', campaigns: 3, lineItems: 2, keywords: 1, posts: 1 };

/** An emulator and a workspace of the fleet on it. */
interface Setting {
  emulator: RunningEmulator;
  client: TestClient;
  ws: Workspace;
}

async function startSetting(): Promise<Setting> {
  const { emulator, client } = await startTestEmulator();
  return { emulator, client, ws: createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', FLEET)) };
}
async function closeSetting(setting: Setting | undefined): Promise<void> {
  await setting?.emulator.close();
  setting?.ws.remove();
}

/** The setting the steps run in: the main one, or the torn line's own. */
let at: Setting;
let main: Setting;

beforeAll(async () => {
  main = await startSetting();
  at = main;
});
afterAll(() => closeSetting(main));
// each step starts with the rate limit budgets of its lookups untouched
beforeEach(() => resetRateLimits(at.emulator.info));

stepsInOrder();

const stateDir = (): string => join(at.ws.dir, '.adsctl', 'state');
const stateFile = (name: string): string => join(stateDir(), name);
const writes = (): number => ['POST', 'PUT', 'DELETE'].reduce((n, m) => n + (at.emulator.stats.byMethod[m] ?? 0), 0);

/**
 * Every file under the state directory with its bytes (as base64), by relative path; not the
 * record of the lock's last generation, which every run that takes the lock moves on.
 */
function stateFiles(dir = stateDir(), under = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(out, stateFiles(path, `${under}${entry.name}/`));
    else if (!entry.name.endsWith('.generation')) out[`${under}${entry.name}`] = readFileSync(path).toString('base64');
  }
  return out;
}

async function adsctl(args: string[], code: number): Promise<CliRun> {
  const run = await at.ws.run(args);
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  expect(run.stderr).not.toMatch(/internal error|TypeError|\n\s+at /);
  return run;
}

/** Expects `adsctl apply` to refuse with every fragment of `said`, sending nothing and leaving no lock. */
async function expectRefused(said: readonly string[]): Promise<CliRun> {
  const before = writes();
  const run = await adsctl(['apply', '--auto-approve'], 1);
  for (const fragment of said) expect(run.stderr, transcript(run)).toContain(fragment);
  expect(writes()).toBe(before);
  expect(existsSync(stateFile(`${ACCOUNT}.lock`))).toBe(false);
  return run;
}

/** Every managed object is there exactly once, bound in the state to the live one. */
async function expectEachOnce(): Promise<void> {
  const bound = parseStateList((await adsctl(['state', 'list'], 0)).stdout);
  expect(await fleetProblems(at.client, ACCOUNT, FLEET, bound)).toEqual([]);
}

/** Ends with every managed object there exactly once and a plan with no changes. */
async function expectConverged(): Promise<void> {
  await expectEachOnce();
  expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
}

/**
 * Kills an apply (SIGKILL) while the answer of its line item batch is held back: the line items
 * exist on the service, the journal holds the campaigns' closed entry and the line items' open one.
 */
async function killedWithLineItemsInFlight(): Promise<string[]> {
  const gate = await startAnswerGate(at.emulator.info.base_url, (write) => write.path.endsWith('/batch/accounts/18ce54d4x5t/line_items'));
  const run = at.ws.start(['apply', '--auto-approve'], { ADSCTL_ENDPOINT: gate.url });
  try {
    await waitUntil('the line item batch in flight', () => run.child.exitCode !== null || gate.held() > 0);
    run.child.kill('SIGKILL');
    expect((await run.done).code).toBeNull();
  } finally {
    await gate.close();
  }
  const lines = readFileSync(stateFile(`${ACCOUNT}.journal`), 'utf8').split('\n');
  // the head, then the campaigns' entry, opened and closed, and the line items' entry, open
  expect(lines.filter((l) => l !== '').length).toBe(4);
  return lines;
}

describe('a journal damaged after a killed apply', () => {
  const DAMAGE = [
    { name: 'a line cut short', damage: (line: string) => line.slice(0, 30) },
    { name: 'a line of zero bytes', damage: (line: string) => '\u0000'.repeat(line.length) },
    { name: 'one character changed', damage: (line: string) => line.replace(/"at":(\d)/, (_, d: string) => `"at":${(Number(d) + 1) % 10}`) },
  ];
  /** The journal the kill left, and the whole state directory then. */
  let lines: string[];
  let killed: Record<string, string>;

  it('a killed apply leaves the line items sent and their journal entry open', async () => {
    lines = await killedWithLineItemsInFlight();
    killed = stateFiles();
  });

  it.each(DAMAGE)('$name before the last line stops the next apply, which creates nothing, and a plan; repaired, the files are as the kill left them', async ({ damage }) => {
    // every file as the kill left it, its lock of a dead process included (a refused run takes it over and releases it)
    for (const [name, bytes] of Object.entries(killed)) writeFileSync(join(stateDir(), name), Buffer.from(bytes, 'base64'));
    const damaged = [lines[0]!, damage(lines[1]!), ...lines.slice(2)];
    expect(damaged[1]).not.toBe(lines[1]);
    writeFileSync(stateFile(`${ACCOUNT}.journal`), damaged.join('\n'));

    const refused = await expectRefused([`${ACCOUNT}.journal:2:`, 'line 2 of 4 is damaged', 'Keep the file']);
    expect(refused.stderr).not.toContain('Apply complete!');
    // a plan, which only reads, says the same
    const planned = await adsctl(['plan'], 1);
    expect(planned.stderr).toContain(`${ACCOUNT}.journal:2:`);

    // repaired: every file as the kill left it but the lock released (and the service unchanged: the
    // apply sent nothing), so the apply of the next step finishes from what each damage left
    writeFileSync(stateFile(`${ACCOUNT}.journal`), lines.join('\n'));
    const { [`${ACCOUNT}.lock`]: lock, ...unlocked } = killed;
    expect(lock).toBeDefined();
    expect(stateFiles()).toEqual(unlocked);
  });

  it('repaired, the apply finishes, creating nothing twice', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    await expectConverged();
  });
});

describe('state that parses but has the wrong shape', () => {
  /** Campaign c00's entry in the state, changed by `edit`. */
  const editCampaign = (edit: (entry: Record<string, unknown>) => unknown) => (state: Record<string, any>) => {
    state['resources']['campaigns.c00'] = edit(state['resources']['campaigns.c00']);
    return state;
  };
  const FORMS: Array<{ name: string; damage: (state: Record<string, any>) => unknown; said: string }> = [
    { name: 'null', damage: () => null, said: 'the state must be an object, not null' },
    { name: 'resources: []', damage: (s) => ({ ...s, resources: [] }), said: 'resources must be an object, not an array' },
    { name: 'a resource null', damage: editCampaign(() => null), said: 'resources["campaigns.c00"] must be an object, not null' },
    { name: 'applied: null', damage: editCampaign((e) => ({ ...e, applied: null })), said: 'resources["campaigns.c00"].applied must be an object, not null' },
    { name: 'a numeric id', damage: editCampaign((e) => ({ ...e, id: 12345 })), said: 'resources["campaigns.c00"].id must be a string, not 12345' },
    { name: 'no id', damage: editCampaign(({ id: _, ...rest }) => rest), said: 'resources["campaigns.c00"] has no id' },
    { name: 'a string serial', damage: (s) => ({ ...s, serial: '7' }), said: 'serial must be an integer, not "7"' },
  ];

  it('is refused in every form, naming the file and the problem, creating nothing and releasing the lock', async () => {
    // the state of the finished apply above
    const good = readFileSync(stateFile(`${ACCOUNT}.json`), 'utf8');
    const before = stateFiles();
    for (const { name, damage, said } of FORMS) {
      writeFileSync(stateFile(`${ACCOUNT}.json`), `${JSON.stringify(damage(JSON.parse(good) as Record<string, any>), null, 2)}\n`);
      const refused = await expectRefused([`${ACCOUNT}.json`, said]);
      expect(refused.stderr, name).toContain('Nothing was changed');
    }
    writeFileSync(stateFile(`${ACCOUNT}.json`), good);
    expect(stateFiles()).toEqual(before);
    // converged still (the plan with no changes comes once the lock below is removed)
    await expectEachOnce();
  });
});

describe('a damaged lock file', () => {
  /** The state directory before the lock was damaged. */
  let unlocked: Record<string, string>;

  it.each([
    { name: 'empty', text: '' },
    { name: 'garbage', text: 'lock\u0000\u0000' },
    { name: 'JSON of another shape', text: '{"who":"me"}\n' },
  ])('($name) names a force-unlock command that removes it, leaving the files as they were', async ({ text }) => {
    unlocked ??= stateFiles();
    writeFileSync(stateFile(`${ACCOUNT}.lock`), text);
    const refused = await adsctl(['plan'], 1);
    const command = /run (adsctl force-unlock \S+)/.exec(refused.stderr);
    expect(command, transcript(refused)).not.toBeNull();
    expect(refused.stderr).toContain('damaged');
    const removed = await adsctl(command![1]!.split(' ').slice(1), 0);
    expect(removed.stdout).toContain('removed');
    expect(existsSync(stateFile(`${ACCOUNT}.lock`))).toBe(false);
    // byte for byte the files a plan ran on before: the plan of the next step runs as it would here
    expect(stateFiles()).toEqual(unlocked);
  });
});

describe('temporary files a kill left', () => {
  // the next run is also the plan that runs once the damaged lock was removed
  it('are removed by the next run', async () => {
    const left = [`${ACCOUNT}.json.tmp-4194303`, `${ACCOUNT}.lock.tmp-4194303`, `${ACCOUNT}.lock.old.tmp-4194303`];
    for (const name of left) writeFileSync(stateFile(name), '{"format_version": 1, "resour');
    expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
    expect(readdirSync(stateDir()).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});

describe('a torn last line', () => {
  beforeAll(async () => {
    at = await startSetting();
  });
  afterAll(async () => {
    await closeSetting(at);
    at = main;
  });

  it('is a write that was never sent: the next apply finishes', async () => {
    const lines = await killedWithLineItemsInFlight();
    writeFileSync(stateFile(`${ACCOUNT}.journal`), `${lines.join('\n')}{"intent":{"seq":3,"at":17`);
    expect(lines.at(-1)).toBe('');
    await adsctl(['apply', '--auto-approve'], 0);
    await expectConverged();
  });
});
