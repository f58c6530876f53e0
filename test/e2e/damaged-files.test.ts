/**
 * Damaged files in the state directory, through the real CLI (issue 9, point 12): whatever is
 * wrong with them, a run never creates anything twice and never ends in a stack trace. A journal
 * damaged before its last line stops the run, naming the file and the line, and is never taken
 * for "nothing to recover"; a torn last line is a write that was never sent. State that parses
 * but has the wrong shape is refused, naming the file and the problem, and the lock is released.
 * A damaged lock file names a force-unlock command that works. Temporary files a kill left are
 * removed by the next run.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, transcript, waitUntil, type Workspace } from '../support/e2e.js';
import { fleetManifest, fleetProblems, type Fleet } from '../support/fleet.js';
import type { CliRun } from '../support/run-cli.js';
import { startAnswerGate } from './answer-gate.js';

const ACCOUNT = '18ce54d4x5t';
const FLEET: Fleet = { prefix: 'E2E Damaged', campaigns: 3, lineItems: 2, keywords: 1, posts: 1 };

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

// an emulator per test: each starts with the rate limit budgets of its lookups untouched
beforeEach(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', FLEET));
});
afterEach(async () => {
  await emulator.close();
  ws.remove();
});

const stateFile = (name: string): string => join(ws.dir, '.adsctl', 'state', name);
const writes = (): number => ['POST', 'PUT', 'DELETE'].reduce((n, m) => n + (emulator.stats.byMethod[m] ?? 0), 0);

async function adsctl(args: string[], code: number): Promise<CliRun> {
  const run = await ws.run(args);
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

/** Ends with every managed object there exactly once and a plan with no changes. */
async function expectConverged(): Promise<void> {
  const bound = parseStateList((await adsctl(['state', 'list'], 0)).stdout);
  expect(await fleetProblems(client, ACCOUNT, FLEET, bound)).toEqual([]);
  expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
}

/**
 * Kills an apply (SIGKILL) while the answer of its line item batch is held back: the line items
 * exist on the service, the journal holds the campaigns' closed entry and the line items' open one.
 */
async function killedWithLineItemsInFlight(): Promise<string[]> {
  const gate = await startAnswerGate(emulator.info.base_url, (write) => write.path.endsWith('/batch/accounts/18ce54d4x5t/line_items'));
  const run = ws.start(['apply', '--auto-approve'], { ADSCTL_ENDPOINT: gate.url });
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

  it.each(DAMAGE)('$name before the last line stops the next apply, which creates nothing; repaired, the apply finishes', async ({ damage }) => {
    const lines = await killedWithLineItemsInFlight();
    const damaged = [lines[0]!, damage(lines[1]!), ...lines.slice(2)];
    expect(damaged[1]).not.toBe(lines[1]);
    writeFileSync(stateFile(`${ACCOUNT}.journal`), damaged.join('\n'));

    const refused = await expectRefused([`${ACCOUNT}.journal:2:`, 'line 2 of 4 is damaged', 'Keep the file']);
    expect(refused.stderr).not.toContain('Apply complete!');
    // a plan, which only reads, says the same
    const planned = await adsctl(['plan'], 1);
    expect(planned.stderr).toContain(`${ACCOUNT}.journal:2:`);

    writeFileSync(stateFile(`${ACCOUNT}.journal`), lines.join('\n'));
    await adsctl(['apply', '--auto-approve'], 0);
    await expectConverged();
  });

  it('a torn last line is a write that was never sent: the next apply finishes', async () => {
    const lines = await killedWithLineItemsInFlight();
    writeFileSync(stateFile(`${ACCOUNT}.journal`), `${lines.join('\n')}{"intent":{"seq":3,"at":17`);
    expect(lines.at(-1)).toBe('');
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
    await adsctl(['apply', '--auto-approve'], 0);
    const good = readFileSync(stateFile(`${ACCOUNT}.json`), 'utf8');
    for (const { name, damage, said } of FORMS) {
      writeFileSync(stateFile(`${ACCOUNT}.json`), `${JSON.stringify(damage(JSON.parse(good) as Record<string, any>), null, 2)}\n`);
      const refused = await expectRefused([`${ACCOUNT}.json`, said]);
      expect(refused.stderr, name).toContain('Nothing was changed');
    }
    writeFileSync(stateFile(`${ACCOUNT}.json`), good);
    await expectConverged();
  });
});

describe('a damaged lock file', () => {
  it.each([
    { name: 'empty', text: '' },
    { name: 'garbage', text: 'lock\u0000\u0000' },
    { name: 'JSON of another shape', text: '{"who":"me"}\n' },
  ])('($name) names a force-unlock command that removes it', async ({ text }) => {
    mkdirSync(join(ws.dir, '.adsctl', 'state'), { recursive: true });
    writeFileSync(stateFile(`${ACCOUNT}.lock`), text);
    const refused = await adsctl(['plan'], 1);
    const command = /run (adsctl force-unlock \S+)/.exec(refused.stderr);
    expect(command, transcript(refused)).not.toBeNull();
    expect(refused.stderr).toContain('damaged');
    const unlocked = await adsctl(command![1]!.split(' ').slice(1), 0);
    expect(unlocked.stdout).toContain('removed');
    expect(existsSync(stateFile(`${ACCOUNT}.lock`))).toBe(false);
    await adsctl(['plan'], 0);
  });
});

describe('temporary files a kill left', () => {
  it('are removed by the next run', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    const left = [`${ACCOUNT}.json.tmp-4194303`, `${ACCOUNT}.lock.tmp-4194303`, `${ACCOUNT}.lock.old.tmp-4194303`];
    for (const name of left) writeFileSync(stateFile(name), '{"format_version": 1, "resour');
    await adsctl(['plan', '--detailed-exitcode'], 0);
    expect(readdirSync(join(ws.dir, '.adsctl', 'state')).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});
