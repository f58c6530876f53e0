/**
 * The kept versions of the state are the last ten under `.adsctl/state/history/<account>/`; an
 * apply that keeps an eleventh removes the oldest. Outside a git repository it does so quietly.
 * When git tracks the file it removes, the apply says so in one line, naming the file and that the
 * commit should include its removal, so a GitOps workflow that commits the state does not leave a
 * deleted file out of its commit, or wonder where it went. The other commands that keep a version
 * (state rm, import) say the same. An apply with nothing to do keeps no version, so it removes none.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, expectRuns, parseStateList, seededAccountHead, stepsInOrder, type Workspace } from '../support/e2e.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let ws: Workspace;
const adsctl = expectRuns(() => ws);
stepsInOrder();

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest(1));
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});

/** A paused campaign whose daily budget is `units` dollars: each new amount is one update, one kept version. */
function manifest(units: number): string {
  return `${seededAccountHead(emulator.info.base_url)}campaigns:
  rotating:
    name: History rotation
    funding_instrument: main
    daily_budget: "${units}.00"
    entity_status: PAUSED
`;
}

const history = (): string => join(ws.dir, '.adsctl', 'state', 'history', ACCOUNT);
const kept = (): number[] => readdirSync(history()).map((name) => Number(name.replace(/\.json$/, ''))).sort((a, b) => a - b);

const git = (...args: string[]): string =>
  execFileSync('git', args, { cwd: ws.dir, encoding: 'utf8', env: { PATH: process.env['PATH'], HOME: ws.dir, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'Author', GIT_AUTHOR_EMAIL: 'author@example.com', GIT_COMMITTER_NAME: 'Author', GIT_COMMITTER_EMAIL: 'author@example.com' } });

/** The run's lines that tell of a kept version removed. */
const removalLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.includes('kept state version'));

describe('history rotation', () => {
  it('removes the oldest of eleven kept versions quietly where no git repository holds the state', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    for (let units = 2; units <= 10; units++) {
      ws.write(manifest(units));
      await adsctl(['apply', '--auto-approve'], 0);
    }
    expect(kept()).toHaveLength(10);
    const oldest = kept()[0]!;
    ws.write(manifest(11));
    const run = await adsctl(['apply', '--auto-approve'], 0);
    expect(kept()).toHaveLength(10);
    expect(kept()).not.toContain(oldest);
    expect(removalLines(run.stderr)).toEqual([]);
  });

  it('says in one line which file it removed when git tracks it, and that the commit should include its removal', async () => {
    git('init', '-q');
    git('add', 'account.yaml', '.adsctl/state');
    git('commit', '-q', '-m', 'state');
    const oldest = kept()[0]!;
    const file = join('.adsctl', 'state', 'history', ACCOUNT, `${oldest}.json`);
    expect(git('ls-files', file).trim()).toBe(file);
    ws.write(manifest(12));
    const run = await adsctl(['apply', '--auto-approve'], 0);
    expect(existsSync(join(ws.dir, file))).toBe(false);
    expect(removalLines(run.stderr)).toEqual([`Removed the kept state version ${file}, which git tracks (only the newest versions are kept): the commit should include its removal.`]);
    // git sees the removal the line names, and the new version beside it
    expect(git('status', '--porcelain', '--', '.adsctl/state/history')).toContain(` D ${file}`);
  });

  it('says the same when state rm and import keep a version and remove a tracked one', async () => {
    const id = parseStateList((await adsctl(['state', 'list'], 0)).stdout).get('campaigns.rotating')!;
    for (const args of [['state', 'rm', 'campaigns.rotating'], ['import', 'campaigns.rotating', id]]) {
      const oldest = join('.adsctl', 'state', 'history', ACCOUNT, `${kept()[0]!}.json`);
      expect(git('ls-files', oldest).trim()).toBe(oldest);
      const run = await adsctl(args, 0);
      expect(removalLines(run.stderr)).toEqual([`Removed the kept state version ${oldest}, which git tracks (only the newest versions are kept): the commit should include its removal.`]);
    }
    expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });

  it('keeps no version for an apply with nothing to do, so removes none and says nothing', async () => {
    const before = kept();
    const run = await adsctl(['apply', '--auto-approve'], 0);
    expect(kept()).toEqual(before);
    expect(removalLines(run.stderr)).toEqual([]);
    expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });
});
