/**
 * Start-up time of the built command line: the median wall time of `node bin/adsctl.js --version`
 * against a bare `node -e 0`, each run in a fresh process, the two interleaved so that load on the
 * machine falls on both alike. Target: within 3× of the bare start (issue 9, point 10).
 */
import { spawnSync } from 'node:child_process';
import { BIN } from '../test/support/cli.js';

export interface StartupFigures {
  runs: number;
  /** Median milliseconds of `node bin/adsctl.js --version`. */
  versionMs: number;
  /** Median milliseconds of `node -e 0`. */
  nodeMs: number;
  ratio: number;
}

function wallMs(args: string[]): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${String(run.status)}: ${String(run.stderr)}`);
  return ms;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Times `runs` starts of each, after one warm-up of each (file cache). */
export function benchStartup(runs = 21): StartupFigures {
  wallMs([BIN, '--version']);
  wallMs(['-e', '0']);
  const version: number[] = [];
  const node: number[] = [];
  for (let i = 0; i < runs; i++) {
    version.push(wallMs([BIN, '--version']));
    node.push(wallMs(['-e', '0']));
  }
  const versionMs = median(version);
  const nodeMs = median(node);
  return { runs, versionMs, nodeMs, ratio: versionMs / nodeMs };
}
