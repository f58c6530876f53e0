/** `npm run bench`: runs every benchmark and prints its figures. */
import { benchEmulator } from './emulator-bench.js';

import { benchDiffPlan } from './diff-plan-bench.js';
import { benchManifest } from './manifest-bench.js';
import type { GenerateBenchResult } from './generate-bench.js';
import { BASE_CAMPAIGNS, benchPlanApply, type RunFigures } from './plan-apply-bench.js';
import { benchAudienceUpload } from './audience-upload-bench.js';
import { benchStartup } from './startup-bench.js';

const only = process.argv[2];
const row = (name: string, f: RunFigures, what: string): string =>
  `  ${name.padEnd(8)} ${what} ${f.requests} / minimum ${f.minimum} = ${(f.requests / f.minimum).toFixed(3)}; wall ${f.wallSeconds.toFixed(1)} s, CPU ${f.cpuSeconds.toFixed(1)} s, peak RSS ${f.peakRssMb.toFixed(0)} MB`;

const generateRows = (g: GenerateBenchResult | undefined): void => {
  if (g === undefined) return;
  console.log(`  generate: ${g.manifests} manifest${g.manifests === 1 ? '' : 's'}, ${g.bound} objects bound; then a plan of them with nothing to change (bench/generate-bench.ts)`);
  console.log(row('generate', g.generate, 'reads ÷ the refresh of its manifests:'));
  console.log(`  generate reads ÷ the least a read of every kind it writes can do: ${g.generate.requests} / ${g.wholeMinimum} = ${(g.generate.requests / g.wholeMinimum).toFixed(3)} (lists the refresh does not read: ${g.extraRoutes.map((r) => r.replace('GET /12/accounts/:account_id/', '')).join(', ') || 'none'})`);
  console.log(row('plan', g.plan, 'reads ÷ refresh minimum:'));
};
// `generate` runs the two benches below with `adsctl generate` after them: `generate` alone, the
// account at 10,000 and 100,000 resources and the agency's 300 accounts; `generate plan-apply
// [campaigns...]` or `generate agency [accounts]`, one of them
const generating = only === 'generate';
const generateOnly = generating && (process.argv[3] === 'plan-apply' || process.argv[3] === 'agency') ? process.argv[3] : undefined;
if (generating && process.argv[3] !== undefined && generateOnly === undefined) throw new Error('usage: run.js generate [plan-apply [campaigns...] | agency [accounts]]');
const args = process.argv.slice(generateOnly === undefined ? 3 : 4);
if (only === undefined || only === 'plan-apply' || (generating && generateOnly !== 'agency')) {
  // `plan-apply 200 600 2000`: the account at 10,000, 30,000 and 100,000 resources, as a whole
  // `npm run bench` records it; `plan-apply` alone, the 10,000 of the first table
  const sizes = args.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
  const all = [BASE_CAMPAIGNS, 3 * BASE_CAMPAIGNS, 10 * BASE_CAMPAIGNS];
  const defaults = only === undefined ? all : generating ? [BASE_CAMPAIGNS, 10 * BASE_CAMPAIGNS] : [BASE_CAMPAIGNS];
  for (const campaigns of sizes.length > 0 ? sizes : defaults) {
    // a whole run generates the 10,000- and 100,000-resource accounts
    const r = await benchPlanApply(campaigns, generating || (only === undefined && campaigns !== 3 * BASE_CAMPAIGNS));
    console.log(`plan and apply of ${r.resources} resources (${campaigns} campaigns), emulator latency 20 ms (bench/plan-apply-bench.ts)`);
    console.log(row('apply', r.apply, 'writes'));
    console.log(row('plan', r.plan, 'reads '));
    const waits = r.plan.network;
    if (waits !== undefined) {
      console.log(`  plan on the network: critical path ${waits.criticalDepth} round trips (${waits.criticalPath}); requests out ${waits.spanSeconds.toFixed(2)} s, of which the process sat idle ${waits.idleSeconds.toFixed(2)} s`);
    }
    console.log(`  per resource: apply CPU ${((r.apply.cpuSeconds / r.resources) * 1e6).toFixed(0)} µs, plan CPU ${((r.plan.cpuSeconds / r.resources) * 1e6).toFixed(0)} µs`);
    generateRows(r.generate);
  }
}
if (only === undefined || only === 'agency' || (generating && generateOnly !== 'plan-apply')) {
  const accounts = Number(args[0] ?? 300);
  const r = await (await import('./agency-bench.js')).benchAgency(accounts, only === undefined || generating);
  console.log(`agency: ${r.accounts} accounts, ${r.resources} resources, emulator latency 20 ms (bench/agency-bench.ts)`);
  console.log(row('apply', r.apply, 'writes'));
  console.log(row('plan', r.plan, 'reads '));
  console.log(`  refresh-only plan after hand changes in ${r.drift.driftedAccounts} accounts (${r.drift.driftedObjects} drifted objects, ${r.drift.historyRequests} account history requests):`);
  console.log(row('drift', r.drift, 'reads ÷ (refresh minimum + one history request per drifted object):'));
  generateRows(r.generate);
}
if (only === 'compare') {
  // `compare DIR [campaigns] [rounds]`: this build beside the one in DIR (compare-builds.ts); not part of a whole run
  const [dir, campaigns, rounds] = [process.argv[3], Number(process.argv[4] ?? 10 * BASE_CAMPAIGNS), Number(process.argv[5] ?? 3)];
  if (dir === undefined || !Number.isSafeInteger(campaigns) || !Number.isSafeInteger(rounds)) throw new Error('usage: run.js compare DIR [campaigns] [rounds]');
  const runs = await (await import('./compare-builds.js')).compareBuilds(dir, campaigns, rounds);
  console.log(`this build beside ${dir}, ${campaigns} campaigns, emulator latency 20 ms without rate limits (bench/compare-builds.ts)`);
  for (const r of runs) console.log(`  ${r.command.padEnd(5)} ${r.build.padEnd(5)} wall ${r.wallSeconds.toFixed(1)} s, CPU ${r.cpuSeconds.toFixed(1)} s, peak RSS ${r.peakRssMb.toFixed(0)} MB`);
  for (const command of ['apply', 'plan'] as const) {
    const mean = (build: string, f: (r: (typeof runs)[number]) => number): number => {
      const of = runs.filter((r) => r.command === command && r.build === build);
      return of.reduce((n, r) => n + f(r), 0) / of.length;
    };
    const most = (build: string): number => Math.max(...runs.filter((r) => r.command === command && r.build === build).map((r) => r.peakRssMb));
    console.log(`  ${command}: mean CPU ${mean('this', (r) => r.cpuSeconds).toFixed(2)} s against ${mean('other', (r) => r.cpuSeconds).toFixed(2)} s (${(mean('this', (r) => r.cpuSeconds) / mean('other', (r) => r.cpuSeconds)).toFixed(2)}×); mean wall ${mean('this', (r) => r.wallSeconds).toFixed(1)} s against ${mean('other', (r) => r.wallSeconds).toFixed(1)} s; largest peak RSS ${most('this').toFixed(0)} MB against ${most('other').toFixed(0)} MB`);
  }
}
if (only === undefined || only === 'peer') {
  // `peer [rounds] [no-creates]`: adsctl beside the batch scripts (peer-bench.ts); `no-creates`
  // leaves out the creates of ~14,500 objects, bound by the write limit (several minutes each)
  const rounds = Number(only === 'peer' ? (process.argv[3] ?? 5) : 5);
  const rows = await (await import('./peer-bench.js')).benchPeer(rounds, !(only === 'peer' && process.argv[4] === 'no-creates'));
  console.log('adsctl beside a batch script over the API, emulator latency 20 ms, the service\'s rate limits (bench/peer-bench.ts)');
  type Figures = { wallSeconds: number; cpuSeconds: number; peakRssMb: number; reads: number; writes: number };
  const cell = (f: Figures): string => `wall ${f.wallSeconds.toFixed(2)} s, CPU ${f.cpuSeconds.toFixed(2)} s, ${f.peakRssMb.toFixed(0)} MB, ${f.reads} reads, ${f.writes} writes`;
  const ratio = (a: Figures, b: Figures): string => `wall ${(a.wallSeconds / b.wallSeconds).toFixed(2)}×, CPU ${(a.cpuSeconds / b.cpuSeconds).toFixed(2)}×, RSS ${(a.peakRssMb / b.peakRssMb).toFixed(2)}×`;
  for (const r of rows) {
    console.log(`  ${r.workload}, ~${r.objects} objects (median of ${r.rounds}):`);
    console.log(`    adsctl            ${cell(r.adsctl)}`);
    if (r.python !== undefined) console.log(`    script, Python    ${cell(r.python)}`);
    console.log(`    script, TypeScript ${cell(r.script)}`);
    if (r.python !== undefined) console.log(`    adsctl ÷ Python script: ${ratio(r.adsctl, r.python)}`);
    console.log(`    adsctl ÷ TypeScript script: ${ratio(r.adsctl, r.script)}`);
  }
}
if (only === undefined || only === 'diff-plan') {
  const r = await benchDiffPlan();
  console.log(`diff and plan of ${r.resources} resources, ${r.changes} changes (bench/diff-plan-bench.ts)`);
  console.log(`  CPU ${r.cpuSeconds.toFixed(2)} s (target <= 2 s), peak RSS ${r.peakRssMb.toFixed(0)} MB (target <= 512 MB)`);
}
if (only === undefined || only === 'manifest') {
  const r = await benchManifest();
  console.log(`validate a ${r.resources}-resource manifest, median of 5 cold runs (bench/manifest-bench.ts)`);
  console.log(`  ${r.seconds.toFixed(2)} s (target < 1 s)`);
}
if (only === undefined || only === 'startup') {
  const r = benchStartup();
  console.log(`start-up, median of ${r.runs} runs each (bench/startup-bench.ts)`);
  console.log(`  node bin/adsctl.js --version ${r.versionMs.toFixed(0)} ms, node -e 0 ${r.nodeMs.toFixed(0)} ms: ${r.ratio.toFixed(2)}x (target <= 3x)`);
}
if (only === undefined || only === 'audience-upload') {
  const r = await benchAudienceUpload();
  console.log(`upload of a ${r.members}-member custom audience in ${r.requests} requests of at most ${r.largestBodyBytes} bytes (bench/audience-upload-bench.ts)`);
  console.log(`  emulator RSS ${r.rssBeforeMb.toFixed(0)} MB before, ${r.rssAfterMb.toFixed(0)} MB after (member set ${r.memberMb.toFixed(0)} MB); ${r.requestsPerSecond.toFixed(1)} upload requests/s (${r.uploadSeconds.toFixed(1)} s)`);
}
if (only === undefined || only === 'audience-hash') await (await import('./audience-hash-bench.js')).runAudienceHashBench();
if (only !== undefined && only !== 'emulator') process.exit(0);
const emulator = await benchEmulator();
console.log('emulator capacity (bench/emulator-bench.ts)');
console.log(`  entities loaded:      ${emulator.entities} campaigns + line items in ${emulator.loadSeconds.toFixed(1)} s`);
console.log(`  emulator RSS:         ${emulator.rssMb.toFixed(0)} MB (target < 500 MB)`);
console.log(`  signed GETs/second:   ${emulator.getsPerSecond.toFixed(0)} (target >= 2000, one server core)`);
