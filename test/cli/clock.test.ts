/**
 * The run's clock through the built CLI (docs/architecture.md, "One clock"): a bad ADSCTL_CLOCK
 * stops any command that reads the time with one line naming the variable and its value, before
 * anything is read, sent or written (`--version`, `validate` and `completion` never read it); `adsctl emulator` takes its time from `--clock`, else from ADSCTL_CLOCK, and
 * says it at `GET /_emulator/clock`, and refuses a bad `--clock` naming the option; and a plan
 * saved and applied with ADSCTL_CLOCK=+400d on `endpoint: local` works at that later date, dating
 * the saved plan, the state versions it writes and the objects the embedded emulator creates 400
 * days on. A shift such as `+400d` is of real time, not of the test clock (which is itself a
 * shift of real time, test/support/test-clock.ts), so what the processes read is bracketed by
 * real time taken before they start and after they answer, plus the shift.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnEmulator, type SpawnedEmulator } from '../support/cli.js';
import { transcript } from '../support/e2e.js';
import { runCli } from '../support/run-cli.js';

const DAY = 86_400_000;
const LATER = 400 * DAY;

/** The message for a clock setting that is neither an instant nor a shift (src/clock/clock.ts). */
const neither = (text: string): string =>
  `${JSON.stringify(text)} is neither an instant (2026-11-23T12:00:00Z, or a date such as 2026-11-23) nor a shift of real time (+400d, -14d, +1d12h, -90m)`;

const scratch = mkdtempSync(join(tmpdir(), 'adsctl-clock-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A new directory `name` under the scratch directory holding a copy of examples/quickstart (`endpoint: local`). */
function quickstart(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  cpSync(new URL('../../examples/quickstart/', import.meta.url), dir, { recursive: true });
  expect(readFileSync(join(dir, 'account.yaml'), 'utf8')).toMatch(/^endpoint: local$/m);
  return dir;
}

/** Epoch milliseconds of an ISO time, failing on anything else. */
function timeOf(text: unknown): number {
  const ms = typeof text === 'string' ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) throw new Error(`not a time: ${JSON.stringify(text)}`);
  return ms;
}

/** `ms` floored to the whole second: the emulator says its time to the second. */
const wholeSecond = (ms: number): number => Math.floor(ms / 1_000) * 1_000;

/** What `GET <base_url>/_emulator/clock` answers: `{"now": "<ISO time, seconds, Z>"}`. */
async function emulatorNow(emulator: SpawnedEmulator): Promise<string> {
  const res = await request(`${emulator.info.base_url}/_emulator/clock`);
  const body = (await res.body.json()) as { now?: unknown };
  expect(res.statusCode).toBe(200);
  expect(Object.keys(body)).toEqual(['now']);
  expect(body.now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  return body.now as string;
}

/** Stops an emulator this file started, expecting a clean exit. */
async function stop(emulator: SpawnedEmulator): Promise<void> {
  emulator.child.kill('SIGTERM');
  expect(await emulator.exited, emulator.stderr()).toBe(0);
}

describe('a bad ADSCTL_CLOCK', () => {
  const cases: Array<{ name: string; value: string; args: (dir: string) => string[] }> = [
    { name: 'plan DIR, a word', value: 'bogus', args: (dir) => ['plan', dir] },
    { name: 'plan DIR, a shift without its sign', value: '400d', args: (dir) => ['plan', dir] },
    { name: 'apply DIR, a date that does not exist', value: '2027-02-30', args: (dir) => ['apply', '--auto-approve', dir] },
    { name: 'emulator, before it listens', value: 'bogus', args: () => ['emulator', '--port', '0'] },
  ];
  for (const [i, c] of cases.entries()) {
    it(`${c.name}: exit 1, one line naming it and the value, nothing read or written`, async () => {
      const cwd = join(scratch, `bad-${i}`);
      mkdirSync(cwd);
      const dir = quickstart(join(`bad-${i}`, 'quickstart'));
      const run = await runCli(c.args(dir), { cwd, env: { ADSCTL_CLOCK: c.value, NO_COLOR: '1' } });
      expect(run.code, transcript(run)).toBe(1);
      expect(run.stderr).toBe(`Error: ADSCTL_CLOCK: ${neither(c.value)}\n`);
      expect(run.stdout).toBe('');
      // no state, cache or embedded emulator data: the run stopped before opening anything
      expect(existsSync(join(dir, '.adsctl'))).toBe(false);
      expect(readdirSync(dir)).toEqual(['account.yaml']);
      expect(readdirSync(cwd)).toEqual(['quickstart']);
    });
  }
});

describe('a bad ADSCTL_CLOCK and the commands that never read the time', () => {
  const cases: Array<{ name: string; args: (dir: string) => string[]; stdout: RegExp }> = [
    { name: '--version', args: () => ['--version'], stdout: /^\d+\.\d+\.\d+\n$/ },
    { name: 'validate DIR', args: (dir) => ['validate', dir], stdout: /^Success! 8 resources in 1 file \(1 account\) are valid\.\n$/ },
    { name: 'completion bash', args: () => ['completion', 'bash'], stdout: /^# bash completion for adsctl/ },
  ];
  for (const [i, c] of cases.entries()) {
    it(`${c.name}: runs as without it, exit 0`, async () => {
      const dir = quickstart(`clockless-${i}`);
      const run = await runCli(c.args(dir), { cwd: scratch, env: { ADSCTL_CLOCK: 'bogus', NO_COLOR: '1' } });
      expect(run.code, transcript(run)).toBe(0);
      expect(run.stdout).toMatch(c.stdout);
    });
  }
});

describe('adsctl emulator and its clock', () => {
  const instants = ['2030-01-01T00:00:00Z', '2026-11-09T12:00:00Z'];
  for (const instant of instants) {
    it(`--clock ${instant}: GET /_emulator/clock reads ${instant} and on`, async () => {
      const before = Date.now();
      // the test clock is in the environment too (clock-setup.ts): the option overrides it
      const emulator = await spawnEmulator(['--clock', instant]);
      try {
        const now = timeOf(await emulatorNow(emulator));
        const elapsed = Date.now() - before;
        expect(now).toBeGreaterThanOrEqual(Date.parse(instant));
        expect(now).toBeLessThanOrEqual(Date.parse(instant) + elapsed);
        expect(now - Date.parse(instant)).toBeLessThan(60_000);
      } finally {
        await stop(emulator);
      }
    });
  }

  it('ADSCTL_CLOCK=+400d and no --clock: reads real time 400 days on', async () => {
    const testShift = process.env['ADSCTL_CLOCK'];
    const before = Date.now();
    let emulator: SpawnedEmulator;
    // spawnEmulator passes this process's environment: the variable is set only while it spawns
    process.env['ADSCTL_CLOCK'] = '+400d';
    try {
      emulator = await spawnEmulator();
    } finally {
      process.env['ADSCTL_CLOCK'] = testShift;
    }
    try {
      const now = timeOf(await emulatorNow(emulator));
      const after = Date.now();
      expect(now).toBeGreaterThanOrEqual(wholeSecond(before + LATER));
      expect(now).toBeLessThanOrEqual(after + LATER);
    } finally {
      await stop(emulator);
    }
  });

  const bad = ['nonsense', '400d', '2026-11-23T12:00:00'];
  for (const value of bad) {
    it(`--clock ${value}: exit 1, naming the option and the value`, async () => {
      const run = await runCli(['emulator', '--port', '0', '--clock', value]);
      expect(run.code, transcript(run)).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`option '--clock <time>' argument '${value}' is invalid`);
      expect(run.stderr).toContain(neither(value));
    });
  }
});

describe('ADSCTL_CLOCK=+400d on endpoint: local', () => {
  it('plans, applies the saved plan and plans again, dating what it writes 400 days on', async () => {
    const dir = quickstart('later');
    const planFile = join(dir, 'quickstart.plan');
    const env = { ADSCTL_CLOCK: '+400d', NO_COLOR: '1' };
    const start = Date.now();

    const plan = await runCli(['plan', '--out', planFile, dir], { cwd: scratch, env });
    const planned = Date.now();
    expect(plan.code, transcript(plan)).toBe(0);
    expect(plan.stdout).toContain('Plan: 8 to add, 0 to change, 0 to destroy.');
    // a saved plan's creation time is the run's clock
    const saved = JSON.parse(readFileSync(planFile, 'utf8')) as { created_at?: unknown };
    expect(timeOf(saved.created_at)).toBeGreaterThanOrEqual(start + LATER);
    expect(timeOf(saved.created_at)).toBeLessThanOrEqual(planned + LATER);

    const applyStart = Date.now();
    const apply = await runCli(['apply', planFile], { cwd: scratch, env });
    const applied = Date.now();
    expect(apply.code, transcript(apply)).toBe(0);
    expect(apply.stdout).toContain('Apply complete! Resources: 8 added, 0 changed, 0 destroyed.');

    // every state version kept (src/state/local-store.ts: history/<stem>/<serial>.json) is written at the run's clock
    const history = join(dir, '.adsctl', 'state', 'history');
    const versions = readdirSync(history).flatMap((stem) => readdirSync(join(history, stem)).map((file) => join(history, stem, file)));
    expect(versions.length).toBeGreaterThan(0);
    for (const file of versions) {
      const kept = JSON.parse(readFileSync(file, 'utf8')) as { written_at?: unknown; operation?: unknown };
      expect(kept.operation, file).toBe('apply');
      expect(timeOf(kept.written_at), file).toBeGreaterThanOrEqual(applyStart + LATER);
      expect(timeOf(kept.written_at), file).toBeLessThanOrEqual(applied + LATER);
    }

    // the embedded emulator ran on the run's clock: what it created this run is dated 400 days on
    // (its seeded records keep their fixed dates, long before the run)
    const data = readFileSync(join(dir, '.adsctl', 'emulator.json'), 'utf8');
    const created = [...data.matchAll(/"created_at":"([^"]+)"/g)].map((m) => timeOf(m[1])).filter((t) => t >= start);
    expect(created.length).toBeGreaterThanOrEqual(8);
    for (const t of created) {
      expect(t).toBeGreaterThanOrEqual(wholeSecond(applyStart + LATER));
      expect(t).toBeLessThanOrEqual(applied + LATER);
    }

    // at that later date the account's history since the last apply shows nothing changed outside
    const again = await runCli(['plan', '--detailed-exitcode', dir], { cwd: scratch, env });
    expect(again.code, transcript(again)).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });
});
