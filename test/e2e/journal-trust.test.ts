/**
 * A journal is trusted only when it proves itself (docs/architecture.md, "State, journal and
 * locks"), through the real CLI. An apply is killed (SIGKILL) while the answer of its line item
 * batch is held back: the line items exist on the service, the journal holds the campaigns' closed
 * entry and the line items' open one. Then the journal or the checkpoint is damaged the ways that
 * used to be read as "nothing to recover" and sent the creates again: a whole last line with one
 * byte changed, the file cut in the middle of a line, emptied, deleted; the checkpoint deleted
 * while the journal and the versions kept remain. Each is refused, naming the file and what to do,
 * sending nothing and releasing the lock; done as told (the piece put back, or a journal lost for
 * good replaced by imports), the next apply finishes with every object there once.
 *
 * The damages that are undone by putting the journal back share one killed apply: each refusal
 * is checked to send nothing and to leave every file of the state directory as the kill left it,
 * but for the dead run's lock, which it takes over and releases. That lock is put back before the
 * next damage, so each damage meets exactly what a freshly killed apply leaves, and the apply that
 * finally recovers meets what a refusal leaves, as it did when each damage had a killed apply of
 * its own. The recoveries that need a state of their own (the journal deleted for good, the
 * checkpoint deleted) each get their own emulator and killed apply.
 */
import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, readLiveAccount, stepsInOrder, transcript, waitUntil, type Workspace } from '../support/e2e.js';
import { fleetCampaigns, fleetManifest, fleetProblems, type Fleet } from '../support/fleet.js';
import type { CliRun } from '../support/run-cli.js';
import { startAnswerGate } from './answer-gate.js';

const ACCOUNT = '18ce54d4x5t';
const FLEET: Fleet = { prefix: 'E2E Trust', campaigns: 3, lineItems: 2, keywords: 1, posts: 1 };

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

/** A fresh emulator and workspace for the tests of the calling `describe`. */
function freshEmulatorPerDescribe(): void {
  beforeAll(async () => {
    ({ emulator, client } = await startTestEmulator());
    ws = createWorkspace(emulator.info, fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', FLEET));
  });
  afterAll(async () => {
    await emulator.close();
    ws.remove();
  });
}

const stateDir = (): string => join(ws.dir, '.adsctl', 'state');
const stateFile = (name: string): string => join(stateDir(), name);
const journal = (): string => stateFile(`${ACCOUNT}.journal`);
const writes = (): number => ['POST', 'PUT', 'DELETE'].reduce((n, m) => n + (emulator.stats.byMethod[m] ?? 0), 0);

/**
 * Every file under the state directory (checkpoint, journal, versions kept), by relative path;
 * not the record of the lock's last generation, which every run that takes the lock moves on.
 */
function stateFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.endsWith('.generation')) out[relative(stateDir(), path)] = readFileSync(path, 'utf8');
    }
  };
  walk(stateDir());
  return out;
}

async function adsctl(args: string[], code: number): Promise<CliRun> {
  const run = await ws.run(args);
  expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
  expect(run.stderr).not.toMatch(/internal error|TypeError|\n\s+at /);
  return run;
}

/** Expects `adsctl apply` (and `plan`) to refuse with every fragment of `said`, sending nothing and leaving no lock. */
async function expectRefused(said: readonly string[]): Promise<CliRun> {
  const before = writes();
  const run = await adsctl(['apply', '--auto-approve'], 1);
  for (const fragment of said) expect(run.stderr, transcript(run)).toContain(fragment);
  expect(run.stderr).not.toContain('Apply complete!');
  expect(writes()).toBe(before);
  expect(existsSync(stateFile(`${ACCOUNT}.lock`))).toBe(false);
  const planned = await adsctl(['plan'], 1);
  expect(planned.stderr).toContain(said[0]);
  expect(writes()).toBe(before);
  return run;
}

/** Ends with every managed object there exactly once and a plan with no changes. */
async function expectConverged(): Promise<void> {
  const bound = parseStateList((await adsctl(['state', 'list'], 0)).stdout);
  expect(await fleetProblems(client, ACCOUNT, FLEET, bound)).toEqual([]);
  expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
}

/** Kills an apply while its line item batch is in flight; returns the journal it left. */
async function killedWithLineItemsInFlight(): Promise<string> {
  const gate = await startAnswerGate(emulator.info.base_url, (write) => write.path.endsWith(`/batch/accounts/${ACCOUNT}/line_items`));
  const run = ws.start(['apply', '--auto-approve'], { ADSCTL_ENDPOINT: gate.url });
  try {
    await waitUntil('the line item batch in flight', () => run.child.exitCode !== null || gate.held() > 0);
    run.child.kill('SIGKILL');
    expect((await run.done).code).toBeNull();
  } finally {
    await gate.close();
  }
  const text = readFileSync(journal(), 'utf8');
  // the head, the campaigns' entry opened and closed, then the line items' entry, open
  const lines = text.split('\n').filter((l) => l !== '');
  expect(lines.at(-1)).toMatch(/^\{"intent":.*"kind":"line_item"/);
  expect(text.endsWith('\n')).toBe(true);
  return text;
}

describe('a journal left by a killed apply', () => {
  freshEmulatorPerDescribe();
  stepsInOrder();

  // one killed apply for the damages undone by putting the journal back (see the file's comment)
  let text: string;
  let killed: Record<string, string>;
  beforeAll(async () => {
    text = await killedWithLineItemsInFlight();
    killed = stateFiles();
  });

  const lock = `${ACCOUNT}.lock`;
  /** The state directory as a refusal leaves it: the killed apply's, without the lock it took over and released. */
  const refused = (): Record<string, string> => Object.fromEntries(Object.entries(killed).filter(([name]) => name !== lock));

  /**
   * Puts back the lock the killed apply left (an earlier refusal took it over from the dead run
   * and released it), damages the journal and expects the refusal; then puts the journal back,
   * after which the state directory must be as the killed apply left it, less that lock.
   */
  async function refusedThenPutBack(damage: () => void, said: readonly string[]): Promise<CliRun> {
    expect(Object.keys(killed)).toContain(lock);
    writeFileSync(stateFile(lock), killed[lock]!);
    expect(stateFiles()).toEqual(killed);
    damage();
    let run: CliRun;
    try {
      run = await expectRefused(said);
    } finally {
      writeFileSync(journal(), text);
    }
    expect(stateFiles()).toEqual(refused());
    return run;
  }

  it('with one byte changed in its whole last line is refused, not taken for a torn write', async () => {
    const lines = text.split('\n');
    const last = lines.length - 2;
    lines[last] = lines[last]!.replace(/"seq":(\d)/, (_, d: string) => `"seq":${(Number(d) + 1) % 10}`);
    await refusedThenPutBack(() => writeFileSync(journal(), lines.join('\n')), [`${ACCOUNT}.journal:4:`, 'line 4 of 4 is damaged (its checksum does not match its content)', 'Keep the file']);
  });

  it('cut in the middle of a line is refused: its head counts the records written', async () => {
    await refusedThenPutBack(() => truncateSync(journal(), text.length - 40), [`${ACCOUNT}.journal:4:`, 'its end was cut off']);
  });

  it.each([
    { name: 'emptied', damage: () => writeFileSync(journal(), ''), said: 'the apply journal is empty' },
    { name: 'deleted', damage: () => rmSync(journal()), said: 'the apply journal is missing' },
  ])('$name is refused: the checkpoint names the journal it relies on', async ({ damage, said }) => {
    const run = await refusedThenPutBack(damage, [`${ACCOUNT}.journal: ${said}`, 'says journal']);
    expect(run.stderr).toContain('put it back');
  });

  it('put back after each of those refusals, lets the next apply finish with every object there once', async () => {
    expect(stateFiles()).toEqual(refused());
    await adsctl(['apply', '--auto-approve'], 0);
    await expectConverged();
  });
});

describe('a journal deleted for good', () => {
  freshEmulatorPerDescribe();

  it('then done as the message says, lets the apply finish with nothing twice', async () => {
    await killedWithLineItemsInFlight();
    rmSync(journal());
    const run = await expectRefused([`${ACCOUNT}.journal: the apply journal is missing`]);
    // the checkpoint, without its claim on the journal; then what that apply created, bound by import
    const push = /\((adsctl state push [^)]+)\)/.exec(run.stderr);
    expect(push, run.stderr).not.toBeNull();
    await adsctl(push![1]!.split(' ').slice(1), 0);
    const live = await readLiveAccount(client, ACCOUNT);
    for (const campaign of fleetCampaigns(FLEET)) {
      const found = live.campaigns.filter((c) => c['name'] === campaign.name);
      expect(found).toHaveLength(1);
      await adsctl(['import', `campaigns.${campaign.key}`, String(found[0]!['id'])], 0);
    }
    await adsctl(['apply', '--auto-approve'], 0);
    await expectConverged();
  });
});

describe('a checkpoint deleted beside its journal and the versions kept', () => {
  freshEmulatorPerDescribe();

  it('is refused with the commands that put the newest version back, which then let the apply finish', async () => {
    // a first apply leaves a version in history; the second, of more campaigns, is killed
    ws.write(fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', { ...FLEET, campaigns: 1 }));
    await adsctl(['apply', '--auto-approve'], 0);
    ws.write(fleetManifest(emulator.info.base_url, ACCOUNT, 'lygyi', FLEET));
    await killedWithLineItemsInFlight();
    rmSync(stateFile(`${ACCOUNT}.json`));

    const run = await expectRefused([`${ACCOUNT}.json: the checkpoint of account ${ACCOUNT} is missing`, 'its apply journal and the versions kept of it']);
    const command = /Put the newest kept version back: (adsctl state pull .*? > (\S+)) && (adsctl state push .*?) \(/.exec(run.stderr);
    expect(command, run.stderr).not.toBeNull();
    const pulled = await adsctl(command![1]!.split(' > ')[0]!.split(' ').slice(1), 0);
    writeFileSync(join(ws.dir, command![2]!), pulled.stdout);
    await adsctl(command![3]!.split(' ').slice(1), 0);

    await adsctl(['apply', '--auto-approve'], 0);
    await expectConverged();
  });
});
