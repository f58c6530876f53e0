/** `npm run bench`: runs every benchmark and prints its figures. */
import { benchEmulator } from './emulator-bench.js';

const emulator = await benchEmulator();
console.log('emulator capacity (bench/emulator-bench.ts)');
console.log(`  entities loaded:      ${emulator.entities} campaigns + line items in ${emulator.loadSeconds.toFixed(1)} s`);
console.log(`  emulator RSS:         ${emulator.rssMb.toFixed(0)} MB (target < 500 MB)`);
console.log(`  signed GETs/second:   ${emulator.getsPerSecond.toFixed(0)} (target >= 2000, one server core)`);
