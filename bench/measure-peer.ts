/**
 * The batch script (peer-script.ts) in a process of its own, measured like an adsctl command
 * (measure-cli.ts): its exit code, CPU time and peak resident memory, start-up included, written
 * as JSON to the file named by BENCH_FIGURES_FILE when it exits.
 */
import { writeFileSync } from 'node:fs';

const file = process.env['BENCH_FIGURES_FILE'];
if (file === undefined) throw new Error('BENCH_FIGURES_FILE is not set');
const started = process.hrtime.bigint();
process.on('exit', (code) => {
  const usage = process.resourceUsage();
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  writeFileSync(file, JSON.stringify({ code, wallSeconds, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, peakRssMb: usage.maxRSS / 1024 }));
});
await import('./peer-script.js');
