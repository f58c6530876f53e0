/**
 * adsctl beside what its users write instead, on the same workloads: a careful script over the
 * official SDK, which reads the account, compares, and writes with the batch endpoints in chunks
 * of their documented maximum — in Python, one request after another as the SDK makes them
 * (peer_script.py, when python3 with requests and PyYAML is at hand), and the same requests in
 * TypeScript with the independent ones at once (peer-script.ts), the stricter of the two; against real emulator processes
 * with 20 ms of latency and the service's rate limits, on the same machine, in alternating rounds
 * so that the machine's load falls on both alike:
 *
 * - create an account of ~1,450 objects (50 campaigns × 4 line items × 5 keyword criteria and one
 *   promoted post each) into an empty account, each into an emulator of its own;
 * - the no-change check of that account (`adsctl plan --detailed-exitcode`, the script's `check`);
 * - a small change applied: 5 budgets and 100 criteria (`adsctl apply --auto-approve`), the two
 *   manifests alternating so that every round changes as much;
 * - the no-change check of ~14,500 objects (500 campaigns), the account created without rate
 *   limits and its emulator restarted with them on the same data;
 * - with `creates` at 14,500 too, the create of ~14,500 objects (bound by the write limit, minutes).
 *
 * Each command runs in a process of its own (measure-cli.ts, measure-peer.ts, python3): wall time
 * from spawn to exit, CPU (user + system) to the exit as the kernel counted it (the process's own
 * figure where /proc is not), and peak RSS, start-up included; reads and writes as the emulator
 * counted them. Medians over the rounds.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEED_POST_IDS } from '../src/emulator/store/seed.js';
import { spawnEmulator, type SpawnedEmulator } from '../test/support/cli.js';
import { lineItemLines, measured, resetStats, routed, stats } from './plan-apply-bench.js';

const ACCOUNT_ID = '18ce54d4x5t';
const LINE_ITEMS = 4;
const CRITERIA = 5;
/** Campaigns whose budget and criteria the small change changes: 5 budgets, 5 × 4 × 5 = 100 criteria. */
const CHANGED_CAMPAIGNS = 5;
const PEER = fileURLToPath(new URL('./measure-peer.js', import.meta.url));
/** The Python script, beside its compiled TypeScript sibling's folder in the sources. */
const PYTHON_PEER = fileURLToPath(new URL('../../bench/peer_script.py', import.meta.url));

/** Who runs a workload: adsctl, the Python script, the TypeScript script. */
export type Contestant = 'adsctl' | 'python' | 'script';

/** Whether python3 with requests and PyYAML's C loader is at hand. */
function pythonAtHand(): boolean {
  const probe = spawnSync('python3', ['-c', 'import requests, yaml; yaml.CSafeLoader'], { stdio: 'ignore' });
  return probe.status === 0;
}

/** One command's figures. */
export interface PeerFigures {
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  reads: number;
  writes: number;
}

/** One workload, adsctl beside the scripts (medians of the rounds); `python` when it was at hand. */
export interface PeerRow {
  workload: string;
  objects: number;
  rounds: number;
  adsctl: PeerFigures;
  python?: PeerFigures;
  script: PeerFigures;
}

/**
 * The bench account: `campaigns` campaigns of 4 line items of 5 keyword criteria and one promoted
 * post each; `changed` gives the first 5 campaigns another budget and their criteria other values.
 */
export function peerManifest(endpoint: string, campaigns: number, changed: boolean): { text: string; objects: number } {
  const lines = ['version: 1', `endpoint: ${endpoint}`, `account: { id: ${ACCOUNT_ID} }`, 'funding_instruments:', '  main: { id: lygyi }', 'campaigns:'];
  let objects = 0;
  for (let c = 0; c < campaigns; c++) {
    const change = changed && c < CHANGED_CAMPAIGNS;
    lines.push(`  c${c}:`, `    name: Campaign ${c}`, '    funding_instrument: main', `    daily_budget: "${change ? '120.00' : '100.00'}"`, '    entity_status: PAUSED', '    line_items:');
    objects++;
    for (let l = 0; l < LINE_ITEMS; l++) {
      lines.push(...lineItemLines(c, l));
      for (let t = 0; t < CRITERIA; t++) lines.push(`          - { targeting_type: BROAD_KEYWORD, targeting_value: "keyword ${c} ${l} ${t}${change ? ' b' : ''}" }`);
      lines.push(`        promoted_posts: ["${SEED_POST_IDS[(c * LINE_ITEMS + l) % SEED_POST_IDS.length]!}"]`);
      objects += 2 + CRITERIA;
    }
  }
  return { text: `${lines.join('\n')}\n`, objects };
}

const credentials = (emu: SpawnedEmulator): NodeJS.ProcessEnv => ({
  ADSCTL_CONSUMER_KEY: emu.info.consumer_key,
  ADSCTL_CONSUMER_SECRET: emu.info.consumer_secret,
  ADSCTL_ACCESS_TOKEN: emu.info.access_token,
  ADSCTL_ACCESS_TOKEN_SECRET: emu.info.access_token_secret,
});

/** A contestant's manifest directory on one emulator. */
interface Side {
  emu: SpawnedEmulator;
  dir: string;
  env: NodeJS.ProcessEnv;
}

function side(emu: SpawnedEmulator, campaigns: number, changed = false): Side {
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-peer-'));
  writeFileSync(join(dir, 'account.yaml'), peerManifest(emu.info.base_url, campaigns, changed).text);
  return { emu, dir, env: credentials(emu) };
}

const write = (s: Side, campaigns: number, changed: boolean): void => writeFileSync(join(s.dir, 'account.yaml'), peerManifest(s.emu.info.base_url, campaigns, changed).text);

type Command = 'create' | 'check' | 'change';

/** Runs one command of adsctl or a script on `s`, and checks it did what the workload means. */
async function run(who: Contestant, command: Command, s: Side): Promise<PeerFigures> {
  const base = s.emu.info.base_url;
  await resetStats(base);
  const argv = who === 'adsctl' ? (command === 'check' ? ['plan', s.dir, '--detailed-exitcode'] : ['apply', s.dir, '--auto-approve']) : [command === 'check' ? 'check' : 'apply', join(s.dir, 'account.yaml')];
  const f = who === 'adsctl' ? await measured(argv, s.env) : who === 'script' ? await measured(argv, s.env, PEER) : await measured(argv, s.env, PYTHON_PEER, 'python3');
  if (f.code !== 0) throw new Error(`${who} ${command} exited ${f.code}:\n${f.output.slice(-3000)}`);
  const seen = await stats(base);
  return { wallSeconds: f.processSeconds, cpuSeconds: f.processCpuSeconds ?? f.cpuSeconds, peakRssMb: f.peakRssMb, reads: routed(seen, (m) => m === 'GET'), writes: routed(seen, (m) => m !== 'GET') };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const medians = (runs: readonly PeerFigures[]): PeerFigures => ({
  wallSeconds: median(runs.map((r) => r.wallSeconds)),
  cpuSeconds: median(runs.map((r) => r.cpuSeconds)),
  peakRssMb: median(runs.map((r) => r.peakRssMb)),
  reads: median(runs.map((r) => r.reads)),
  writes: median(runs.map((r) => r.writes)),
});

/** `rounds` rounds of `each(who, round)` for each contestant, the order turning each round so that no one always goes first. */
async function alternate(rounds: number, who: readonly Contestant[], each: (who: Contestant, round: number) => Promise<PeerFigures>): Promise<Partial<Record<Contestant, PeerFigures>>> {
  const runs = new Map<Contestant, PeerFigures[]>(who.map((c) => [c, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < who.length; i++) {
      const contestant = who[(round + i) % who.length]!;
      runs.get(contestant)!.push(await each(contestant, round));
    }
  }
  return Object.fromEntries([...runs].map(([c, r]) => [c, medians(r)]));
}

/** A row of `alternate`'s medians. */
function row(workload: string, objects: number, rounds: number, figures: Partial<Record<Contestant, PeerFigures>>): PeerRow {
  return { workload, objects, rounds, adsctl: figures.adsctl!, ...(figures.python === undefined ? {} : { python: figures.python }), script: figures.script! };
}

/** A free TCP port, for an emulator restarted on the same endpoint. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function stop(emu: SpawnedEmulator): Promise<void> {
  emu.child.kill('SIGTERM');
  await emu.exited;
}

/** An emulator and a manifest directory of the account for each of `who`. */
async function sides(who: readonly Contestant[], campaigns: number, args: string[] = []): Promise<Map<Contestant, Side>> {
  const out = new Map<Contestant, Side>();
  for (const c of who) out.set(c, side(await spawnEmulator(['--latency', '20', ...args]), campaigns));
  return out;
}

async function dropSides(all: ReadonlyMap<Contestant, Side>): Promise<void> {
  await Promise.all([...all.values()].map((s) => stop(s.emu)));
  for (const s of all.values()) rmSync(s.dir, { recursive: true, force: true });
}

/** Each of `who` creates the account into an emulator of its own, one after the other. */
async function creates(who: readonly Contestant[], campaigns: number, workload: string): Promise<PeerRow> {
  const all = await sides(who, campaigns);
  try {
    const figures: Partial<Record<Contestant, PeerFigures>> = {};
    for (const c of who) figures[c] = await run(c, 'create', all.get(c)!);
    return row(workload, peerManifest('', campaigns, false).objects, 1, figures);
  } finally {
    await dropSides(all);
  }
}

/** Creates, checks and changes the ~1,450-object account. */
async function small(who: readonly Contestant[], rounds: number): Promise<PeerRow[]> {
  const campaigns = 50;
  const objects = peerManifest('', campaigns, false).objects;
  const create = await creates(who, campaigns, 'create');
  const all = await sides(who, campaigns);
  try {
    for (const c of who) await run(c, 'create', all.get(c)!);
    // everyone checks the account adsctl created: the same objects, read the same way
    const check = await alternate(rounds, who, (c) => run(c, 'check', all.get('adsctl')!));
    const change = await alternate(rounds, who, (c, round) => {
      write(all.get(c)!, campaigns, round % 2 === 0);
      return run(c, 'change', all.get(c)!);
    });
    return [create, row('no-change check', objects, rounds, check), row(`${CHANGED_CAMPAIGNS} budgets + ${CHANGED_CAMPAIGNS * LINE_ITEMS * CRITERIA} criteria changed`, objects, rounds, change)];
  } finally {
    await dropSides(all);
  }
}

/** Checks the ~14,500-object account; with `createsToo`, creates it first with each under the rate limits. */
async function large(who: readonly Contestant[], rounds: number, createsToo: boolean): Promise<PeerRow[]> {
  const campaigns = 500;
  const objects = peerManifest('', campaigns, false).objects;
  const rows: PeerRow[] = createsToo ? [await creates(who, campaigns, 'create (rate-limit bound)')] : [];
  // the account is set up without rate limits, then checked under them on the same data and endpoint
  const data = mkdtempSync(join(tmpdir(), 'adsctl-peer-data-'));
  const port = await freePort();
  const at = ['--latency', '20', '--port', String(port), '--data', join(data, 'emulator.json')];
  let emu = await spawnEmulator([...at, '--rate-limit-scale', '0']);
  const s = side(emu, campaigns);
  try {
    await run('adsctl', 'create', s);
    await stop(emu);
    emu = await spawnEmulator(at);
    s.emu = emu;
    rows.push(row('no-change check', objects, rounds, await alternate(rounds, who, (c) => run(c, 'check', s))));
    return rows;
  } finally {
    await stop(emu);
    rmSync(s.dir, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
}

/** Every workload: `rounds` rounds of the checks and changes; the Python script when it is at hand. */
export async function benchPeer(rounds = 5, createsAtScale = true): Promise<PeerRow[]> {
  const who: Contestant[] = pythonAtHand() ? ['adsctl', 'python', 'script'] : ['adsctl', 'script'];
  return [...(await small(who, rounds)), ...(await large(who, rounds, createsAtScale))];
}
