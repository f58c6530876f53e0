/**
 * Whether the run that took a lock is still there. A pid alone cannot say: two containers sharing a
 * state directory (and a hostname) both run adsctl as pid 1, and a pid is reused. So a lock file
 * names its holder's process exactly (`LockProcess`: the kernel's boot id, the pid namespace and the
 * process's start time), and the holder rewrites a random heartbeat id in it every few seconds.
 *
 * - Same boot and same pid namespace: the pid means the same process here. The holder is gone when
 *   no process has that pid, or the process that has it started at another time (a reused pid).
 * - Another boot or another pid namespace (or a host that cannot say): the pid means nothing here.
 *   The holder is gone only when its heartbeat has not moved for `HEARTBEAT_STALE_MS`.
 * - A lock file of the old format (no `process`): as before, a pid of this hostname that no process
 *   has any more; a lock of another host cannot be judged.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { LockInfo, LockProcess } from './store.js';

/** How often a holder rewrites its heartbeat. */
export const HEARTBEAT_MS = 2_000;

/**
 * How long a heartbeat must stand still before its holder counts as gone: three missed beats and
 * a margin of 4 s for a loaded machine. The heartbeat is written by a thread of its own, so a busy
 * run (a plan of many resources) does not miss beats.
 */
export const HEARTBEAT_STALE_MS = 3 * HEARTBEAT_MS + 4_000;

/** The host part of a lock's `holder` (`user@host`). */
function holderHost(holder: string): string {
  return holder.slice(holder.lastIndexOf('@') + 1);
}

/** Whether a process with this pid exists on this host (one of another user counts). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

const readOr = (read: () => string): string | undefined => {
  try {
    return read().trim();
  } catch {
    return undefined;
  }
};

/**
 * The start time of a process (field 22 of `/proc/PID/stat`, clock ticks after boot): undefined when
 * no process has the pid, null when this host has no `/proc` to ask.
 */
export function processStartTime(pid: number): string | undefined | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return null;
    return readOr(() => readFileSync('/proc/self/stat', 'utf8')) === undefined ? null : undefined;
  }
  // the command name (field 2) is in parentheses and may hold spaces or parentheses itself
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[22 - 3] ?? null;
}

/** This process as a lock names it, with what this host can tell (nothing of it outside Linux). */
function ownProcess(): LockProcess {
  const boot = readOr(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'));
  const pidNs = readOr(() => readlinkSync('/proc/self/ns/pid'));
  const start = processStartTime(process.pid);
  return { ...(boot === undefined ? {} : { boot_id: boot }), ...(pidNs === undefined ? {} : { pid_ns: pidNs }), ...(typeof start === 'string' ? { start_time: start } : {}) };
}

/** What the judging process knows of itself and its host. */
export interface HostFacts {
  host: string;
  pid: number;
  process: LockProcess;
  /** As `processStartTime`. */
  startTime(pid: number): string | undefined | null;
  exists(pid: number): boolean;
}

/** The facts of this process and host. */
export function hostFacts(): HostFacts {
  return { host: hostname(), pid: process.pid, process: ownProcess(), startTime: processStartTime, exists: processExists };
}

/** Whether a pid of `info`'s holder means the same process here (same boot, same pid namespace), so that it can be seen gone. */
export function pidsMeanSame(info: LockInfo, facts: HostFacts): boolean {
  const held = info.process;
  const own = facts.process;
  if (held === undefined) return holderHost(info.holder) === facts.host;
  return held.boot_id !== undefined && held.pid_ns !== undefined && held.boot_id === own.boot_id && held.pid_ns === own.pid_ns;
}

/** Why a holder counts as gone (said when its lock is taken over), or undefined while it may live. */
type HolderVerdict = string | undefined;

/**
 * Whether the holder of `info` is provably gone. `ownIds` are the locks this process holds;
 * `quietMs` is how long its heartbeat is known not to have moved; `staleMs` the bound.
 */
export function judgeHolder(info: LockInfo, facts: HostFacts, ownIds: ReadonlySet<string>, quietMs: number, staleMs: number = HEARTBEAT_STALE_MS): HolderVerdict {
  if (!Number.isSafeInteger(info.pid) || info.pid <= 0) return undefined;
  const held = info.process;
  if (held === undefined) {
    if (holderHost(info.holder) !== facts.host) return undefined;
    if (info.pid === facts.pid) return ownIds.has(info.id) ? undefined : `pid ${info.pid} is this process, which does not hold it`;
    return facts.exists(info.pid) ? undefined : `no process of this host has pid ${info.pid}`;
  }
  const own = facts.process;
  const samePids = held.boot_id !== undefined && held.pid_ns !== undefined && held.boot_id === own.boot_id && held.pid_ns === own.pid_ns;
  if (!samePids) {
    return quietMs >= staleMs ? `it runs in another pid namespace or boot, and its heartbeat has not moved for ${Math.round(quietMs / 1000)} s` : undefined;
  }
  if (info.pid === facts.pid) return ownIds.has(info.id) ? undefined : `pid ${info.pid} is this process, which does not hold it`;
  const start = facts.startTime(info.pid);
  if (start === undefined) return `no process of this boot and pid namespace has pid ${info.pid}`;
  if (start === null) return facts.exists(info.pid) ? undefined : `no process of this boot and pid namespace has pid ${info.pid}`;
  if (held.start_time !== undefined && start !== held.start_time) return `pid ${info.pid} is another process now (it started at another time)`;
  return undefined;
}

/**
 * Why the holder of `info` is known to be running, or undefined when it is not (gone, or where this
 * process cannot see it: another host, another boot): what `force-unlock` refuses to break without
 * `--force`. `ageMs` is how long ago the lock file was last written (its last heartbeat) by this
 * host's clock, which is the holder's clock only within one boot. A lock of this very process is
 * not counted: the process asking is not a run holding it.
 */
export function holderAlive(info: LockInfo, facts: HostFacts, ageMs: number, staleMs: number = HEARTBEAT_STALE_MS): string | undefined {
  if (info.damaged !== undefined || !Number.isSafeInteger(info.pid) || info.pid <= 0) return undefined;
  const held = info.process;
  if (held === undefined) {
    if (holderHost(info.holder) !== facts.host || info.pid === facts.pid) return undefined;
    return facts.exists(info.pid) ? `process ${info.pid} of this host is still running` : undefined;
  }
  const own = facts.process;
  const samePids = held.boot_id !== undefined && held.pid_ns !== undefined && held.boot_id === own.boot_id && held.pid_ns === own.pid_ns;
  if (samePids) {
    if (info.pid === facts.pid) return undefined;
    return judgeHolder(info, facts, new Set(), 0, staleMs) === undefined ? `process ${info.pid} of this host is still running` : undefined;
  }
  const sameClock = held.boot_id !== undefined && held.boot_id === own.boot_id;
  if (!sameClock || ageMs >= staleMs) return undefined;
  return `it runs as pid ${info.pid} in another pid namespace of this machine, and its heartbeat moved ${Math.round(ageMs / 1000)} s ago`;
}
