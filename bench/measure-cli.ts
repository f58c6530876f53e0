/**
 * One adsctl command in a process of its own, for the benches: runs the CLI with the arguments
 * given, as shipped (the bundle `bin/adsctl.js` loads, dist/bundle/main.js) and set up as
 * `bin/adsctl.js` sets it up (the heap growth of src/cli/heap-growth.ts), then
 * writes its exit code, wall time, CPU time and peak resident memory (the process's own, start-up
 * included) and where it waited on the network (network-trace.ts) as JSON to the file named by
 * BENCH_FIGURES_FILE.
 */
import { writeFileSync } from 'node:fs';
import { tuneHeapGrowth } from '../src/cli/heap-growth.js';
import { traceNetwork } from './network-trace.js';

const file = process.env['BENCH_FIGURES_FILE'];
if (file === undefined) throw new Error('BENCH_FIGURES_FILE is not set');
tuneHeapGrowth(process.argv.slice(2));
const network = traceNetwork();
const started = process.hrtime.bigint();
const { main } = (await import(new URL('../../dist/bundle/main.js', import.meta.url).href)) as typeof import('../src/cli/main.js');
const code = await main(process.argv.slice(2));
const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
const usage = process.resourceUsage();
writeFileSync(file, JSON.stringify({ code, wallSeconds, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, peakRssMb: usage.maxRSS / 1024, network: network.figures() }));
process.exit(0);
