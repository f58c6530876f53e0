/**
 * How far V8 lets the heap grow past the live data before its next full collection, for the
 * commands that hold a whole account in memory. Left alone, V8 grows the old generation to up to
 * four times the live data on a machine with memory to spare: a plan of 100,000 resources (about
 * 300 MB live) peaked at 640–720 MB resident, an apply at 860–1,070 MB. A growth of 30% keeps
 * such a plan under 512 MB and the first apply at about 512 MB, for about 30% more plan CPU than
 * V8's default growth; 50% and more let that apply reach 548–652 MB (BENCHMARKS.md, "Peak memory at
 * 100,000 resources").
 *
 * The heap limit itself (`--max-old-space-size`) is fixed when the process starts, and a hard cap
 * would turn a larger account into an out-of-memory crash; the growth factor is read at every
 * full collection, so setting it at start-up takes effect for the whole run without a second
 * process. A user who passes heap flags of their own (in NODE_OPTIONS or to node) keeps them.
 */
import { setFlagsFromString } from 'node:v8';

/** The heap grows by this percentage of the live data between full collections. */
export const HEAP_GROWING_PERCENT = 30;

/** Commands that read manifests, state, live objects or plans of whole accounts. */
const DATA_COMMANDS: ReadonlySet<string> = new Set(['validate', 'plan', 'apply', 'destroy', 'show', 'import', 'generate', 'state']);

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

const processHost = (): HeapGrowthHost => ({ nodeOptions: process.env['NODE_OPTIONS'], execArgv: process.execArgv, setFlags: setFlagsFromString });

/**
 * Sets V8's heap growth for a run of `argv` (adsctl's arguments) when its command handles large
 * data and the user gave no heap flag of their own; returns the flag set, or undefined.
 */
export function tuneHeapGrowth(argv: readonly string[], host: HeapGrowthHost = processHost()): string | undefined {
  const command = argv.find((a) => !a.startsWith('-'));
  if (command === undefined || !DATA_COMMANDS.has(command)) return undefined;
  if (USER_HEAP_FLAG.test(host.nodeOptions ?? '') || host.execArgv.some((a) => USER_HEAP_FLAG.test(a))) return undefined;
  const flag = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
  host.setFlags(flag);
  return flag;
}
