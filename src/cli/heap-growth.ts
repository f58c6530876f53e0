/**
 * How far V8 lets the heap grow past the live data before its next full collection, for the
 * commands that hold a whole account in memory. Left alone, V8 grows the old generation to up to
 * four times the live data on a machine with memory to spare: a plan of 100,000 resources peaked
 * at 640–735 MB resident, an apply at 860–1,070 MB.
 *
 * The growth is set per command from what it holds at its largest. An apply or a destroy holds
 * the plan, its operations and every write's outcome besides the account (about 300 MB live at
 * 100,000 resources): 30% keeps its first apply at 435–463 MB, where 50% reaches 476–488 MB for no
 * CPU saved. The other commands hold the account and its refresh (about 230 MB live): 60% keeps
 * the no-change plan at 427–462 MB, at 1.06× the CPU of V8's own growth in the build before; 30%
 * costs it a fifth more CPU for no less memory, and 100% lets it reach 479 MB (BENCHMARKS.md, "Heap
 * growth by command").
 *
 * The heap limit itself (`--max-old-space-size`) is fixed when the process starts, and a hard cap
 * would turn a larger account into an out-of-memory crash; the growth factor is read at every
 * full collection, so setting it at start-up takes effect for the whole run without a second
 * process. A user who passes heap flags of their own (in NODE_OPTIONS or to node) keeps them.
 */
import { setFlagsFromString } from 'node:v8';

/** The heap growth, in percent of the live data between full collections, of the commands that write. */
export const WRITING_HEAP_GROWTH = 30;

/** The heap growth of the commands that read whole accounts and write no plan's outcomes. */
export const READING_HEAP_GROWTH = 60;

/** Commands that read manifests, state, live objects or plans of whole accounts, with their growth. */
const DATA_COMMANDS: ReadonlyMap<string, number> = new Map([
  ['apply', WRITING_HEAP_GROWTH],
  ['destroy', WRITING_HEAP_GROWTH],
  ...['validate', 'plan', 'show', 'import', 'generate', 'state'].map((c): [string, number] => [c, READING_HEAP_GROWTH]),
]);

/** V8 flags by which a user sizes or tunes the heap; any of them leaves the heap to the user. */
const USER_HEAP_FLAG = /(?:^|\s)--(?:max[-_]old[-_]space[-_]size|max[-_]heap[-_]size|max[-_]semi[-_]space[-_]size|heap[-_]growing[-_]percent|optimize[-_]for[-_]size)(?:[=\s]|$)/;

/** What `tuneHeapGrowth` reads of the process; the real one by default. */
export interface HeapGrowthHost {
  /** NODE_OPTIONS, as the user set it. */
  nodeOptions: string | undefined;
  /** Node's own command-line options (`process.execArgv`). */
  execArgv: readonly string[];
  setFlags: (flags: string) => void;
}

/** This process, as the V8 tunings of a command read and set it. */
export const processHost = (): HeapGrowthHost => ({ nodeOptions: process.env['NODE_OPTIONS'], execArgv: process.execArgv, setFlags: setFlagsFromString });

/** Whether the user gave node a flag matching `flag`, in NODE_OPTIONS or on node's own command line. */
export function userGave(host: HeapGrowthHost, flag: RegExp): boolean {
  return flag.test(host.nodeOptions ?? '') || host.execArgv.some((a) => flag.test(a));
}

/**
 * Sets V8's heap growth for a run of `argv` (adsctl's arguments) when its command handles large
 * data and the user gave no heap flag of their own; returns the flag set, or undefined.
 */
export function tuneHeapGrowth(argv: readonly string[], host: HeapGrowthHost = processHost()): string | undefined {
  const command = argv.find((a) => !a.startsWith('-'));
  const growth = command === undefined ? undefined : DATA_COMMANDS.get(command);
  if (growth === undefined) return undefined;
  if (userGave(host, USER_HEAP_FLAG)) return undefined;
  const flag = `--heap-growing-percent=${growth}`;
  host.setFlags(flag);
  return flag;
}
