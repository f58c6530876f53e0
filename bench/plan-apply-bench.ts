/**
 * Plan and apply of a 10,000-resource account (or a multiple: `campaigns` 600 is about 30,000,
 * 2,000 about 100,000 — the same shape, 50 resources a campaign) against a real emulator process with 20 ms of
 * latency on every request: requests made against the least possible (docs/architecture.md), wall time, CPU
 * and peak memory of the adsctl process for the apply and for the plan that follows it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { SEED_POST_IDS } from '../src/emulator/store/seed.js';
import { spawnEmulator } from '../test/support/cli.js';
import { benchGenerate, type GenerateBenchResult } from './generate-bench.js';
import type { NetworkFigures } from './network-trace.js';

/** Campaigns of the 10,000-resource account. */
export const BASE_CAMPAIGNS = 200;
const LINE_ITEMS_PER_CAMPAIGN = 10;
const CRITERIA_PER_LINE_ITEM = 3;
/** Line items that promote 50 posts each, per 200 campaigns (the rest promote none). */
const PROMOTING_PER_200 = 36;
const POSTS_PER_LINE_ITEM = 50;
/** The emulator's seeded account, which the bench fills. */
const ACCOUNT_ID = '18ce54d4x5t';

export interface RunFigures {
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  requests: number;
  minimum: number;
  /** Where the command waited on the network (network-trace.ts): critical path and idle time. */
  network?: NetworkFigures;
}

export interface PlanApplyBenchResult {
  resources: number;
  apply: RunFigures;
  plan: RunFigures;
  /** `adsctl generate` of the applied account, when asked for. */
  generate?: GenerateBenchResult;
}

/** The lines of line item `l` of campaign `c` of the bench accounts, up to its `targeting:` key (paused, keyword-targeted). */
export const lineItemLines = (c: number, l: number): string[] => [
  `      l${l}:`,
  `        name: Line item ${c}.${l}`,
  '        product_type: PROMOTED_TWEETS',
  '        objective: ENGAGEMENTS',
  '        placements: [ALL_ON_SERVICE]',
  '        bid_strategy: MAX',
  '        bid_amount: "1.00"',
  '        entity_status: PAUSED',
  '        start_time: 2027-01-01T00:00:00Z',
  '        targeting:',
];

/** The bench account's manifest at `CAMPAIGNS` campaigns, of which `PROMOTING_LINE_ITEMS` line items promote posts. */
export function manifest(endpoint: string, CAMPAIGNS: number, PROMOTING_LINE_ITEMS: number): { text: string; resources: number } {
  const lines = ['version: 1', `endpoint: ${endpoint}`, `account: { id: ${ACCOUNT_ID} }`, 'funding_instruments:', '  main: { id: lygyi }', 'campaigns:'];
  let resources = 0;
  let promoting = 0;
  for (let c = 0; c < CAMPAIGNS; c++) {
    lines.push(`  c${c}:`, `    name: Campaign ${c}`, '    funding_instrument: main', '    daily_budget: "100.00"', '    entity_status: PAUSED', '    line_items:');
    resources++;
    for (let l = 0; l < LINE_ITEMS_PER_CAMPAIGN; l++) {
      lines.push(...lineItemLines(c, l));
      resources++;
      for (let t = 0; t < CRITERIA_PER_LINE_ITEM; t++) lines.push(`          - { targeting_type: BROAD_KEYWORD, targeting_value: "keyword ${c} ${l} ${t}" }`);
      resources += CRITERIA_PER_LINE_ITEM;
      if (promoting < PROMOTING_LINE_ITEMS && l === 0) {
        promoting++;
        lines.push(`        promoted_posts: [${SEED_POST_IDS.slice(0, POSTS_PER_LINE_ITEM).map((id) => `"${id}"`).join(', ')}]`);
        resources += POSTS_PER_LINE_ITEM;
      }
    }
  }
  return { text: `${lines.join('\n')}\n`, resources };
}

/** The CPU time (user + system) of this process's children that have ended, from /proc; undefined elsewhere. */
function childrenCpuSeconds(): number | undefined {
  try {
    // the fields after the command's name: cutime and cstime are the 14th and 15th, in clock ticks (100 a second)
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Runs one CLI command in a process of its own (measure-cli.ts, or another `script`, run by
 * `program`, that writes the same figures), so wall time, CPU and peak RSS are that command's alone: a plan measured after
 * an apply does not inherit the apply's memory. `processSeconds` is the whole process's wall time,
 * from the spawn to the exit, and `processCpuSeconds` its CPU time to the exit as the kernel counted
 * it for this process's children (undefined where /proc is not), so processes of any language are
 * measured alike.
 */
export async function measured(argv: string[], env: NodeJS.ProcessEnv, script = fileURLToPath(new URL('./measure-cli.js', import.meta.url)), program = process.execPath): Promise<{ code: number; wallSeconds: number; processSeconds: number; processCpuSeconds?: number; cpuSeconds: number; peakRssMb: number; network?: NetworkFigures; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-measure-'));
  const figuresFile = join(dir, 'figures.json');
  try {
    const childCpu = childrenCpuSeconds();
    const spawned = process.hrtime.bigint();
    const child = spawn(program, [script, ...argv], {
      env: { ...process.env, ...env, BENCH_FIGURES_FILE: figuresFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output = (output + chunk.toString('utf8')).slice(-100_000)));
    child.stderr.on('data', (chunk: Buffer) => void (output = (output + chunk.toString('utf8')).slice(-100_000)));
    const exit = await new Promise<number>((resolve) => child.on('close', (status) => resolve(status ?? 1)));
    // from the spawn to the exit: Node's own start-up and the loading of the code included
    const processSeconds = Number(process.hrtime.bigint() - spawned) / 1e9;
    const childCpuAfter = childrenCpuSeconds();
    if (!existsSync(figuresFile)) throw new Error(`adsctl ${argv.join(' ')} ended with ${exit} before measuring:\n${output.slice(-3000)}`);
    const figures = JSON.parse(readFileSync(figuresFile, 'utf8')) as { code: number; wallSeconds: number; cpuSeconds: number; peakRssMb: number; network?: NetworkFigures };
    return { ...figures, processSeconds, ...(childCpu === undefined || childCpuAfter === undefined ? {} : { processCpuSeconds: childCpuAfter - childCpu }), output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Advertising requests the emulator routed (control requests excluded), by method. */
export function routed(s: { byRoute: Record<string, number> }, method: (m: string) => boolean): number {
  return Object.entries(s.byRoute).reduce((n, [route, count]) => n + (method(route.split(' ')[0]!) ? count : 0), 0);
}

export async function stats(base: string): Promise<{ byMethod: Record<string, number>; byRoute: Record<string, number> }> {
  const res = await request(`${base}/_emulator/stats`);
  return (await res.body.json()) as { byMethod: Record<string, number>; byRoute: Record<string, number> };
}

export async function resetStats(base: string): Promise<void> {
  const res = await request(`${base}/_emulator/stats/reset`, { method: 'POST' });
  await res.body.text();
}

/** The line items of an account of `campaigns` campaigns that promote posts. */
export const promotingLineItems = (campaigns: number): number => Math.round((campaigns * PROMOTING_PER_200) / 200);

/** Applies and plans the account; with `generate`, then generates it (generate-bench.ts) and plans that. */
export async function benchPlanApply(CAMPAIGNS = BASE_CAMPAIGNS, generate = false): Promise<PlanApplyBenchResult> {
  const PROMOTING_LINE_ITEMS = promotingLineItems(CAMPAIGNS);
  const emu = await spawnEmulator(['--latency', '20']);
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-bench-'));
  try {
    const { text, resources } = manifest(emu.info.base_url, CAMPAIGNS, PROMOTING_LINE_ITEMS);
    writeFileSync(join(dir, 'account.yaml'), text);
    const env = {
      ADSCTL_CONSUMER_KEY: emu.info.consumer_key,
      ADSCTL_CONSUMER_SECRET: emu.info.consumer_secret,
      ADSCTL_ACCESS_TOKEN: emu.info.access_token,
      ADSCTL_ACCESS_TOKEN_SECRET: emu.info.access_token_secret,
    };
    const lineItems = CAMPAIGNS * LINE_ITEMS_PER_CAMPAIGN;
    const criteria = lineItems * CRITERIA_PER_LINE_ITEM;
    const posts = PROMOTING_LINE_ITEMS * POSTS_PER_LINE_ITEM;

    await resetStats(emu.info.base_url);
    const apply = await measured(['apply', dir, '--auto-approve'], env);
    if (apply.code !== 0) throw new Error(`apply failed:\n${apply.output.slice(-3000)}`);
    const afterApply = await stats(emu.info.base_url);
    const writes = routed(afterApply, (method) => method !== 'GET');
    // the least an apply can do: one write per batch limit, one promoted-posts POST per 50 posts of a line item
    const minWrites = Math.ceil(CAMPAIGNS / 40) + Math.ceil(lineItems / 40) + Math.ceil(criteria / 500) + PROMOTING_LINE_ITEMS * Math.ceil(POSTS_PER_LINE_ITEM / 50);

    await resetStats(emu.info.base_url);
    const plan = await measured(['plan', dir, '--detailed-exitcode'], env);
    if (plan.code !== 0) throw new Error(`plan after apply was not empty (exit ${plan.code}):\n${plan.output.slice(-3000)}`);
    const afterPlan = await stats(emu.info.base_url);
    if (process.env['BENCH_DEBUG'] !== undefined) console.log(afterPlan.byRoute);
    // the least a refresh can do: one list request per 1,000 records of a kind (account, funding
    // instrument, campaigns, line items, promoted posts) plus one per 200 line item ids (targeting)
    // the curated categories of managed line items are read to see additions made by hand: their
    // list has no line item filter, so one request for the account's (empty) list
    const minReads = 1 + 1 + Math.ceil(CAMPAIGNS / 1000) + Math.ceil(lineItems / 1000) + Math.ceil(posts / 1000) + Math.ceil(lineItems / 200) + 1;
    const planReads = routed(afterPlan, (method) => method === 'GET');
    return {
      resources,
      apply: { ...apply, requests: writes, minimum: minWrites },
      plan: { ...plan, requests: planReads, minimum: minReads },
      // the manifest generate writes names the account's features: its plan reads them too
      ...(generate ? { generate: await benchGenerate(emu.info.base_url, env, [ACCOUNT_ID], resources, minReads + 1) } : {}),
    };
  } finally {
    emu.child.kill('SIGTERM');
    await emu.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
