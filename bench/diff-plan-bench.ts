/**
 * Diff and plan of 100,000 resources (no network): CPU seconds of `diffResources` plus `buildPlan`
 * over a synthetic account with a realistic mix of drift, edits, equal sets, creates and deletes,
 * and the peak resident memory of the process. Runs in a fresh process so memory is its own.
 * Targets: at most 2 s of CPU and 512 MB.
 */
import { execFileSync } from 'node:child_process';

export interface DiffPlanBenchResult {
  resources: number;
  changes: number;
  cpuSeconds: number;
  peakRssMb: number;
}

const RESOURCES = 100_000;

export async function benchDiffPlan(): Promise<DiffPlanBenchResult> {
  const input = new URL('./diff-input.js', import.meta.url).href;
  const diff = new URL('../src/diff/diff.js', import.meta.url).href;
  const build = new URL('../src/plan/build.js', import.meta.url).href;
  const script = `
    const { benchmarkDiffInput } = await import(${JSON.stringify(input)});
    const { diffResources } = await import(${JSON.stringify(diff)});
    const { buildPlan } = await import(${JSON.stringify(build)});
    const data = benchmarkDiffInput(${RESOURCES});
    global.gc?.();
    const cpu = process.cpuUsage();
    const result = diffResources(data);
    const plan = buildPlan('plan', [{ account: data.desired.key, accountId: data.live.accountId, endpoint: 'bench', desired: data.desired,
      changes: result.value ?? [], live: data.live, lookups: undefined, reads: 0, stateSerial: data.state.serial }]);
    const used = process.cpuUsage(cpu);
    const changes = plan.accounts[0].changes.filter((c) => c.action !== 'noop').length;
    process.stdout.write(JSON.stringify({ resources: data.desired.resources.length, changes, cpuSeconds: (used.user + used.system) / 1e6,
      peakRssMb: process.resourceUsage().maxRSS / 1024 }));
  `;
  const output = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(output) as DiffPlanBenchResult;
}
