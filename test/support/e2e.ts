/**
 * End-to-end workspaces: a temporary directory holding one manifest (whose `endpoint:` names the
 * emulator), the environment a user of that emulator would set (its credentials), and runners for
 * the built `adsctl` in that directory, to completion or in the background. Also reads of what the
 * emulator holds, through the API, so a test checks the live account rather than what adsctl says
 * about it, and run-time fault injection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { beforeEach, expect, onTestFailed } from 'vitest';
import type { StartupInfo } from '../../src/emulator/emulator.js';
import { BIN } from './cli.js';
import type { Params, TestClient } from './client.js';
import { runCli, type CliOptions, type CliRun } from './run-cli.js';
import { clockEnv } from './test-clock.js';

/** The credentials a user of this emulator would set (docs/architecture.md), and the test clock; the endpoint is the manifest's. */
export function emulatorEnv(info: StartupInfo): NodeJS.ProcessEnv {
  return {
    ...clockEnv(),
    ADSCTL_CONSUMER_KEY: info.consumer_key,
    ADSCTL_CONSUMER_SECRET: info.consumer_secret,
    ADSCTL_ACCESS_TOKEN: info.access_token,
    ADSCTL_ACCESS_TOKEN_SECRET: info.access_token_secret,
    NO_COLOR: '1',
  };
}

export interface Workspace {
  dir: string;
  /** The manifest file inside `dir`. */
  manifest: string;
  env: NodeJS.ProcessEnv;
  /** Replaces the manifest's text. */
  write(yaml: string): void;
  /** Runs `adsctl ...args` with `dir` as working directory and the emulator's environment. */
  run(args: string[], options?: Omit<CliOptions, 'env' | 'cwd'>): Promise<CliRun>;
  /** Starts `adsctl ...args` in the background (stdin closed); `env` adds to the workspace's. */
  start(args: string[], env?: NodeJS.ProcessEnv): RunningCli;
  remove(): void;
}

/** A temporary directory with `account.yaml` = `yaml`, wired to the emulator of `info`. */
export function createWorkspace(info: StartupInfo, yaml: string): Workspace {
  const ws = workspaceAt(info, mkdtempSync(join(tmpdir(), 'adsctl-e2e-')));
  ws.write(yaml);
  return ws;
}

/** A workspace over directory `dir` as it is (its manifest `account.yaml`, written only by `write`), wired to the emulator of `info`. */
export function workspaceAt(info: StartupInfo, dir: string): Workspace {
  const manifest = join(dir, 'account.yaml');
  const env = { ...emulatorEnv(info), XDG_CONFIG_HOME: join(dir, '.config') };
  return {
    dir,
    manifest,
    env,
    write: (text) => writeFileSync(manifest, text),
    run: (args, options = {}) => runCli(args, { ...options, env, cwd: dir }),
    start: (args, extra = {}) => startCli(args, { ...env, ...extra }, dir),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A CLI process running in the background. */
export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has ended (a signal gives code null). */
  done: Promise<CliRun>;
}

/** Spawns the built CLI without waiting for it; stdin is closed, so it never sees a terminal. */
export function startCli(args: string[], env: NodeJS.ProcessEnv, cwd: string): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...clockEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

/**
 * Polls `condition` every few milliseconds until it holds. The deadline only turns a hang into a
 * failure that says what was awaited; no assertion depends on how long the wait took.
 */
export async function waitUntil(what: string, condition: () => boolean | Promise<boolean>, deadlineMs = 40_000): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > deadlineMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Every record of a list endpoint (count 1000, following cursors); throws on anything but 200. */
export async function listAll(client: TestClient, path: string, params: Params = {}): Promise<Array<Record<string, any>>> {
  const out: Array<Record<string, any>> = [];
  let cursor: string | undefined;
  do {
    const reply = await client.get(path, { count: 1000, ...params, ...(cursor === undefined ? {} : { cursor }) });
    if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status}: ${reply.text}`);
    out.push(...(reply.body.data as Array<Record<string, any>>));
    cursor = reply.body.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return out;
}

/** Ids in chunks of 200, the API's filter limit. */
function chunks(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += 200) out.push(ids.slice(i, i + 200));
  return out;
}

/** What one emulator account holds: campaigns, line items, promoted posts, targeting criteria. */
export interface LiveAccount {
  campaigns: Array<Record<string, any>>;
  lineItems: Array<Record<string, any>>;
  promotedPosts: Array<Record<string, any>>;
  targeting: Array<Record<string, any>>;
}

/** Reads the live (not deleted) campaigns, line items, promoted posts and targeting of an account. */
export async function readLiveAccount(client: TestClient, account: string): Promise<LiveAccount> {
  const base = `/12/accounts/${account}`;
  const campaigns = await listAll(client, `${base}/campaigns`, { with_draft: true });
  const lineItems = await listAll(client, `${base}/line_items`, { with_draft: true });
  const lineItemIds = lineItems.map((l) => String(l['id']));
  const promotedPosts: Array<Record<string, any>> = [];
  const targeting: Array<Record<string, any>> = [];
  for (const part of chunks(lineItemIds)) {
    promotedPosts.push(...(await listAll(client, `${base}/promoted_tweets`, { line_item_ids: part })));
    targeting.push(...(await listAll(client, `${base}/targeting_criteria`, { line_item_ids: part })));
  }
  return { campaigns, lineItems, promotedPosts, targeting };
}

/**
 * Starts every rate-limit window of the emulator afresh: a file that runs many fresh workspaces
 * would otherwise spend its budget of global lookups (5 in 15 minutes) and wait.
 */
export async function resetRateLimits(info: StartupInfo): Promise<void> {
  const res = await request(`${info.base_url}/_emulator/rate-limits/reset`, { method: 'POST' });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`POST /_emulator/rate-limits/reset answered ${res.statusCode}`);
}

/**
 * Sets the emulator's injected faults at run time (`POST /_emulator/faults`), e.g.
 * `429=7%,503=7%,reset=6%`; an empty spec turns them off. The seed restarts the fault sequence.
 */
export async function setFaults(info: StartupInfo, spec: string, seed = 1): Promise<void> {
  const res = await request(`${info.base_url}/_emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: spec, seed }) });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`POST /_emulator/faults answered ${res.statusCode}: ${text}`);
}

/** How many times each key occurs; keys with a count above one are duplicates. */
export function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** The `address<TAB>id` lines of `adsctl state list`, as a map. */
export function parseStateList(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const tab = line.lastIndexOf('\t');
    if (tab > 0) out.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return out;
}

/** A CLI run's output for an assertion message. */
export const transcript = (run: CliRun): string => `exit ${String(run.code)}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;

/**
 * Makes the tests of the calling file a sequence of steps that build on each other: once one
 * fails, the rest are not run (they would only repeat its failure) and say which step broke.
 */
export function stepsInOrder(): void {
  let broken: string | undefined;
  beforeEach(() => {
    if (broken !== undefined) throw new Error(`not run: an earlier step failed (${broken})`);
    onTestFailed(({ task }) => {
      broken = task.name;
    });
  });
}

/** `adsctl ...args` in the workspace, expecting exit `code` (the transcript is the failure message). */
export function expectRuns(ws: () => Workspace): (args: string[], code: number) => Promise<CliRun> {
  return async (args, code) => {
    const run = await ws().run(args);
    expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
    return run;
  };
}

/** The head of a manifest of the emulator's seeded account on `endpoint`, its funding instrument as `main`. */
export function seededAccountHead(endpoint: string, account = '18ce54d4x5t'): string {
  return `version: 1\nendpoint: ${endpoint}\naccount:\n  id: "${account}"\nfunding_instruments:\n  main: { id: lygyi }\n`;
}

/**
 * The paused campaign `launch` of the seeded funding instrument and its paused line item `us`, as
 * several scenarios' manifests hold them under `campaigns:`: from `  launch:` to the line item's
 * `entity_status`, so a scenario can go on with the line item's targeting or another campaign.
 */
export const LAUNCH_CAMPAIGN = `  launch:
    name: Launch
    funding_instrument: main
    daily_budget: "10.00"
    entity_status: PAUSED
    line_items:
      us:
        name: US
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount: "1.50"
        start_time: 2026-12-01T00:00:00Z
        entity_status: PAUSED
`;
