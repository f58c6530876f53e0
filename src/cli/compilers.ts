/**
 * How V8 compiles a command's code. A command is a short process — a no-change plan of an account
 * of 1,450 objects takes about 0.4 s — and V8's defaults are made for long ones (BENCHMARKS.md,
 * "adsctl beside a batch script"):
 *
 * - **The optimization budget.** V8 hands a function to its optimizing compiler after a budget
 *   of bytecode run; by default, in half a second, it optimizes hundreds of functions on
 *   background threads that are called a few more times before the process ends (a fifth of the
 *   run's CPU). Four times the budget keeps that for the functions that stay hot: the loops of a
 *   large account still reach optimized code within milliseconds of the work they do.
 * - **WebAssembly.** The HTTP client parses responses with llhttp compiled to WebAssembly, and V8
 *   compiles the module with its optimizing compiler too: 0.1 s of CPU and 35 MB of peak memory at
 *   the first request, a quarter of a small plan's CPU and a third of its memory. Its baseline
 *   compiler (Liftoff) alone compiles it at once; llhttp reads the status line, headers and chunk
 *   framing, never the bodies, so its speed does not show in a run.
 *
 * V8 reads these flags when it compiles a function or a module, so setting them at start-up
 * covers the command's code. A user who passes either flag (in NODE_OPTIONS or to node) keeps
 * theirs, and the other is still set.
 */
import { processHost, userGave, type HeapGrowthHost } from './heap-growth.js';

/** V8's own budget (`--interrupt-budget`, in bytes of bytecode run) on Node 20, and the one set. */
export const V8_INTERRUPT_BUDGET = 132 * 1024;
export const COMMAND_INTERRUPT_BUDGET = 4 * V8_INTERRUPT_BUDGET;

/** Each flag set, with the pattern of the user's flags that replace it. */
const FLAGS: ReadonlyArray<{ flag: string; user: RegExp }> = [
  { flag: `--interrupt-budget=${COMMAND_INTERRUPT_BUDGET}`, user: /(?:^|\s)--interrupt[-_]budget(?:[=\s]|$)/ },
  { flag: '--liftoff-only', user: /(?:^|\s)--(?:no[-_])?(?:liftoff[-_]only|liftoff|wasm[-_]tier[-_]up|wasm[-_]dynamic[-_]tiering)(?:[=\s]|$)/ },
];

/** Sets the compilers' flags the user did not set; returns those set, in order. */
export function tuneCompilers(host: HeapGrowthHost = processHost()): string[] {
  const set: string[] = [];
  for (const { flag, user } of FLAGS) {
    if (userGave(host, user)) continue;
    host.setFlags(flag);
    set.push(flag);
  }
  return set;
}
