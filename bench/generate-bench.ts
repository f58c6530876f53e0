/**
 * `adsctl generate` over accounts another bench has applied (the plan-apply bench's account, the
 * agency bench's 300): generate runs in a process of its own into a fresh directory, then `plan
 * --detailed-exitcode` over what it wrote must exit 0 — a figure for manifests that do not plan
 * clean is worthless, so the bench fails instead. Measured: generate's wall time, CPU and peak
 * memory, and its reads against those of the plan that follows, which is a full refresh of the
 * same accounts as the generated manifests declare them.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measured, resetStats, routed, stats, type RunFigures } from './plan-apply-bench.js';

export interface GenerateBenchResult {
  /** Generate's reads ÷ the reads of the plan's refresh of the generated manifests. */
  generate: RunFigures;
  /**
   * The least a read of every kind generate writes can do: the refresh of its manifests, plus one
   * request an account for each list the refresh did not read (kinds the accounts do not use),
   * plus the list of accounts, once.
   */
  wholeMinimum: number;
  /** The lists generate read that the refresh of its manifests did not. */
  extraRoutes: string[];
  /** The plan of the generated manifests (exit 0), its reads ÷ the refresh minimum the calling bench computes. */
  plan: RunFigures;
  manifests: number;
  /** Objects generate bound in the state, summed over its accounts. */
  bound: number;
}

/**
 * Generates the accounts named (at the emulator `base`, with the credentials in `env`) and plans
 * the result; throws unless generate exits 0, writes one manifest per account, binds at least
 * `resources` objects, and the plan after it exits 0. `refreshMinimum` is the least a refresh of
 * those accounts can read.
 */
export async function benchGenerate(base: string, env: NodeJS.ProcessEnv, accountIds: readonly string[], resources: number, refreshMinimum: number): Promise<GenerateBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-generate-bench-'));
  try {
    await resetStats(base);
    const generate = await measured(['generate', dir, '--endpoint', base, ...accountIds.flatMap((id) => ['--account', id])], env);
    if (generate.code !== 0) throw new Error(`generate failed (exit ${generate.code}):\n${generate.output.slice(-3000)}`);
    const afterGenerate = await stats(base);
    if (process.env['BENCH_DEBUG'] !== undefined) console.log(afterGenerate.byRoute);
    if (routed(afterGenerate, (method) => method !== 'GET') !== 0) throw new Error('generate wrote to the service');
    const manifests = readdirSync(dir).filter((name) => name.endsWith('.yaml')).length;
    if (manifests !== accountIds.length) throw new Error(`generate wrote ${manifests} manifests for ${accountIds.length} accounts`);
    const stateDir = join(dir, '.adsctl', 'state');
    const bound = readdirSync(stateDir)
      .filter((name) => name.endsWith('.json'))
      .reduce((n, name) => n + Object.keys((JSON.parse(readFileSync(join(stateDir, name), 'utf8')) as { resources: object }).resources).length, 0);
    if (bound < resources) throw new Error(`generate bound ${bound} objects, fewer than the ${resources} resources applied:\n${generate.output.slice(-3000)}`);

    await resetStats(base);
    const plan = await measured(['plan', dir, '--detailed-exitcode'], env);
    if (plan.code !== 0) throw new Error(`plan of the generated manifests was not empty (exit ${plan.code}):\n${plan.output.slice(-3000)}`);
    const afterPlan = await stats(base);
    if (process.env['BENCH_DEBUG'] !== undefined) console.log(afterPlan.byRoute);
    const refresh = routed(afterPlan, (method) => method === 'GET');
    if (routed(afterPlan, (method) => method !== 'GET') !== 0) throw new Error('the plan of the generated manifests wrote to the service');
    const extraRoutes = Object.keys(afterGenerate.byRoute).filter((route) => route.startsWith('GET ') && route !== 'GET /12/accounts' && afterPlan.byRoute[route] === undefined);
    return {
      generate: { ...generate, requests: routed(afterGenerate, (method) => method === 'GET'), minimum: refresh },
      wholeMinimum: refresh + accountIds.length * extraRoutes.length + 1,
      extraRoutes,
      plan: { ...plan, requests: refresh, minimum: refreshMinimum },
      manifests,
      bound,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
