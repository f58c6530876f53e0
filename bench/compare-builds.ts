/**
 * `run.js compare DIR [campaigns] [rounds]`: this build beside another (a checkout of adsctl in DIR
 * with `npm run build && npx tsc -p bench/tsconfig.json` run in it) on the same account, against
 * the same emulator, one after the other, so that the load of a shared machine falls on both
 * alike. Each round applies the account into a fresh emulator with each build (the first apply),
 * then each build plans one applied account with nothing to change. The emulator answers with
 * 20 ms of latency and without rate limits, so an apply's wall time is its own work rather than
 * the service's request budget. Wall time, CPU and peak RSS are those of the measured process alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnEmulator } from '../test/support/cli.js';
import { manifest, measured, promotingLineItems } from './plan-apply-bench.js';

export interface BuildRun {
  build: 'this' | 'other';
  command: 'apply' | 'plan';
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

/** Runs `body` with the bench account written for a fresh emulator, and stops the emulator after. */
async function withAccount<T>(campaigns: number, body: (dir: string, env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  const emu = await spawnEmulator(['--latency', '20', '--rate-limit-scale', '0']);
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-compare-'));
  try {
    writeFileSync(join(dir, 'account.yaml'), manifest(emu.info.base_url, campaigns, promotingLineItems(campaigns)).text);
    const env = {
      ADSCTL_CONSUMER_KEY: emu.info.consumer_key,
      ADSCTL_CONSUMER_SECRET: emu.info.consumer_secret,
      ADSCTL_ACCESS_TOKEN: emu.info.access_token,
      ADSCTL_ACCESS_TOKEN_SECRET: emu.info.access_token_secret,
    };
    return await body(dir, env);
  } finally {
    emu.child.kill('SIGTERM');
    await emu.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function compareBuilds(otherDir: string, campaigns: number, rounds: number): Promise<BuildRun[]> {
  const builds: Array<[BuildRun['build'], string | undefined]> = [
    ['this', undefined],
    ['other', join(resolve(otherDir), '.bench-build', 'bench', 'measure-cli.js')],
  ];
  const runs: BuildRun[] = [];
  const measure = async (build: BuildRun['build'], script: string | undefined, command: BuildRun['command'], dir: string, env: NodeJS.ProcessEnv): Promise<void> => {
    const argv = command === 'apply' ? ['apply', dir, '--auto-approve'] : ['plan', dir, '--detailed-exitcode'];
    const f = await measured(argv, env, script);
    if (f.code !== 0) throw new Error(`${build} build: adsctl ${command} exited ${f.code}:\n${f.output.slice(-3000)}`);
    runs.push({ build, command, wallSeconds: f.wallSeconds, cpuSeconds: f.cpuSeconds, peakRssMb: f.peakRssMb });
  };
  for (let round = 0; round < rounds; round++) {
    for (const [build, script] of builds) await withAccount(campaigns, (dir, env) => measure(build, script, 'apply', dir, env));
  }
  await withAccount(campaigns, async (dir, env) => {
    const setup = await measured(['apply', dir, '--auto-approve'], env);
    if (setup.code !== 0) throw new Error(`the apply before the plans exited ${setup.code}:\n${setup.output.slice(-3000)}`);
    for (let round = 0; round < rounds; round++) for (const [build, script] of builds) await measure(build, script, 'plan', dir, env);
  });
  return runs;
}
