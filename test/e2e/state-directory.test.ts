/**
 * The directories of a root's `.adsctl/` that adsctl cannot use: `.adsctl`, `.adsctl/state` or
 * `.adsctl/cache` a file where a directory belongs, or a state directory this user cannot write.
 * Each is one line naming the path and what to do, exit 1, nothing sent — never an internal
 * error. Once the path is put right, the run goes on as if nothing had happened.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, expectRuns, seededAccountHead, stepsInOrder, transcript, type Workspace } from '../support/e2e.js';
import type { CliRun } from '../support/run-cli.js';

let emulator: RunningEmulator;
let ws: Workspace;
const adsctl = expectRuns(() => ws);

/** A campaign with a line item that targets a location: the plan reads lookups, and caches them. */
const manifest = (endpoint: string): string => `${seededAccountHead(endpoint)}campaigns:
  dirs:
    name: State directory test
    funding_instrument: main
    daily_budget: "5.00"
    entity_status: PAUSED
    line_items:
      us:
        name: US
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_strategy: MAX
        bid_amount: "1.50"
        start_time: 2026-01-01T00:00:00Z
        entity_status: PAUSED
        targeting:
          - { targeting_type: LOCATION, targeting_value: 96683cc9126741d1 }
`;

const writes = (): number => ['POST', 'PUT', 'DELETE'].reduce((n, m) => n + (emulator.stats.byMethod[m] ?? 0), 0);

/** The run's stderr is one line, naming `path`, saying `remedy`; nothing was written to the service. */
function expectOneLine(run: CliRun, path: string, remedy: RegExp): void {
  const lines = run.stderr.trim().split('\n');
  expect(lines, transcript(run)).toHaveLength(1);
  expect(lines[0], transcript(run)).toMatch(/^Error: /);
  expect(lines[0]).toContain(path);
  expect(lines[0]).toMatch(remedy);
  expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
}

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url));
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});
stepsInOrder();

describe('a file where .adsctl keeps a directory', () => {
  it.each([
    { file: '.adsctl', commands: [['plan'], ['apply', '--auto-approve'], ['state', 'list'], ['force-unlock', 'some-id']] },
    { file: '.adsctl/state', commands: [['plan'], ['apply', '--auto-approve'], ['state', 'list'], ['force-unlock', 'some-id']] },
    { file: '.adsctl/cache', commands: [['plan'], ['apply', '--auto-approve']] },
  ])('$file a file: one line naming it, exit 1, nothing sent', async ({ file, commands }) => {
    rmSync(join(ws.dir, '.adsctl'), { recursive: true, force: true });
    mkdirSync(join(ws.dir, '.adsctl'));
    rmSync(join(ws.dir, file), { recursive: true, force: true });
    writeFileSync(join(ws.dir, file), 'not a directory\n');
    const before = writes();
    for (const args of commands) expectOneLine(await adsctl(args, 1), join(ws.dir, file), /is a file, where adsctl keeps .* in a directory: move the file away/);
    expect(writes()).toBe(before);
    rmSync(join(ws.dir, '.adsctl'), { recursive: true, force: true });
  });
});

describe('a state directory this user cannot write', () => {
  // root writes through permission bits: the refusal can only be seen by another user
  it.skipIf(process.getuid?.() === 0)('is one line naming it, exit 1, nothing sent', async () => {
    const state = join(ws.dir, '.adsctl', 'state');
    mkdirSync(state, { recursive: true });
    chmodSync(state, 0o555);
    try {
      const before = writes();
      for (const args of [['plan'], ['apply', '--auto-approve']]) expectOneLine(await adsctl(args, 1), state, /is not writable by this user.*make it writable/);
      expect(writes()).toBe(before);
    } finally {
      chmodSync(state, 0o755);
    }
  });
});

describe('once the path is put right', () => {
  it('applies, and the plan after shows no changes', async () => {
    expect((await adsctl(['apply', '--auto-approve'], 0)).stdout).toContain('Apply complete!');
    expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });
});
