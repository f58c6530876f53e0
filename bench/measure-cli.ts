/**
 * One adsctl command in a process of its own, for the benches: runs the CLI with the arguments
 * given, as `bin/adsctl.js` runs it (`runProcess` of the bundle, dist/bundle/main.js, with its
 * heap growth and compiler flags), then
 * writes its exit code, wall time, CPU time and peak resident memory (the process's own, start-up
 * included) and where it waited on the network (network-trace.ts) as JSON to the file named by
 * BENCH_FIGURES_FILE.
 */
import { writeFileSync } from 'node:fs';
import { traceNetwork } from './network-trace.js';

const file = process.env['BENCH_FIGURES_FILE'];
if (file === undefined) throw new Error('BENCH_FIGURES_FILE is not set');
const network = traceNetwork();
const started = process.hrtime.bigint();
const { runProcess } = (await import(new URL('../../dist/bundle/main.js', import.meta.url).href)) as typeof import('../src/cli/main.js');
await runProcess(process.argv.slice(2));
const code = Number(process.exitCode ?? 0);
const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
const usage = process.resourceUsage();
writeFileSync(file, JSON.stringify({ code, wallSeconds, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, peakRssMb: usage.maxRSS / 1024, network: network.figures() }));
process.exit(0);
