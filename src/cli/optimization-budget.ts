/**
 * How soon V8 hands a hot function to its optimizing compiler. A command is a short process: a
 * no-change plan of an account of 1,450 objects takes about 0.4 s, in which V8 by default
 * optimizes hundreds of functions on background threads, most of them to run a few more times
 * before the process ends — a fifth of the run's CPU (BENCHMARKS.md, "The no-change plan beside
 * a batch script"). Four times V8's budget of work before a function is optimized keeps that CPU
 * for the functions that stay hot: the loops of a large account still reach optimized code within
 * milliseconds of the work they do. V8 reads the budget when it first compiles a function, so
 * setting it at start-up covers the command's code. A user who passes the flag (in NODE_OPTIONS or
 * to node) keeps theirs.
 */
import { setFlagsFromString } from 'node:v8';
import type { HeapGrowthHost } from './heap-growth.js';

/** V8's own budget (`--interrupt-budget`, in bytes of bytecode run) on Node 20, and the one set. */
export const V8_INTERRUPT_BUDGET = 132 * 1024;
export const COMMAND_INTERRUPT_BUDGET = 4 * V8_INTERRUPT_BUDGET;

const USER_FLAG = /(?:^|\s)--interrupt[-_]budget(?:[=\s]|$)/;

const processHost = (): HeapGrowthHost => ({ nodeOptions: process.env['NODE_OPTIONS'], execArgv: process.execArgv, setFlags: setFlagsFromString });

/** Sets the budget unless the user set one; returns the flag set, or undefined. */
export function delayOptimization(host: HeapGrowthHost = processHost()): string | undefined {
  if (USER_FLAG.test(host.nodeOptions ?? '') || host.execArgv.some((a) => USER_FLAG.test(a))) return undefined;
  const flag = `--interrupt-budget=${COMMAND_INTERRUPT_BUDGET}`;
  host.setFlags(flag);
  return flag;
}
