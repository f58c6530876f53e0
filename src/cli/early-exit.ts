/**
 * Ending the process before its command finishes — its stdout closed by the reader (`adsctl plan |
 * head -c 1`), or a bug thrown where nothing catches it — without leaving a state lock behind for
 * the next run to wait on. An early exit releases the local locks this process holds (through
 * the releasers the code that loads the lock module registers, `releaseOnExit`, so a command that
 * takes no lock loads none of it), removes any lock file left in the state directories the
 * commands name whose id is one of them, then exits at once. Locks released normally are gone
 * already. An interrupt (interrupt.ts) first releases every lock through its backend
 * (`exitReleasing`), so a PostgreSQL holder row goes with its lock.
 */
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { LockInfo, Lock as StoreLock } from '../state/store.js';

const stateDirs = new Set<string>();

/** Each releases the local locks this process holds and returns their ids (state/lock.ts `releaseOwnLocks`). */
const releasers = new Set<() => readonly string[]>();

/** Has an early exit run `release`, which releases this process's local locks and returns their ids. */
export function releaseOnExit(release: () => readonly string[]): void {
  releasers.add(release);
}

/** Records that this run may take locks in `stateDir`, so an early exit releases them. */
export function guardLocksIn(stateDir: string): void {
  stateDirs.add(stateDir);
}

/** Whether the lock file at `path` is one of `ids` (a pid says nothing: another pid namespace has ours too). */
function heldHere(path: string, ids: ReadonlySet<string>): boolean {
  try {
    return ids.has((JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>).id ?? '');
  } catch {
    return false;
  }
}

/** Releases the local locks this process holds; returns the paths of any of their files it still had to remove. */
function releaseHeldLocks(): string[] {
  const released: string[] = [];
  const ids = new Set<string>();
  for (const release of releasers) for (const id of release()) ids.add(id);
  for (const dir of stateDirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (!name.endsWith('.lock') || !heldHere(path, ids)) continue;
      try {
        unlinkSync(path);
        released.push(path);
      } catch {
        // removed by the run itself meanwhile
      }
    }
  }
  return released;
}

/** Releases this process's locks and ends it with `code`, whatever is still pending. */
export function exitNow(code: number): never {
  releaseHeldLocks();
  process.exit(code);
}

/** The locks of any backend this process holds, as the stores granted them (state-store.ts). */
const guarded = new Set<StoreLock>();

/**
 * `lock`, to be released by `exitReleasing` too: an interrupt releases it through its backend's
 * own release (which, in PostgreSQL, also deletes the holder row), not only by dropping it.
 */
export function guardLock(lock: StoreLock): StoreLock {
  const entry: StoreLock = {
    ...lock,
    release: async () => {
      guarded.delete(entry);
      await lock.release();
    },
  };
  guarded.add(entry);
  return entry;
}

/** How long an interrupted run waits for its locks' releases before it ends anyway. */
const RELEASE_BOUND_MS = 5_000;

let exiting = false;

/**
 * Whether the process is on its way out through `exitReleasing`: what the run's own work then
 * throws or returns (a write the release cut short) is the interrupt's doing, not news.
 */
export function exitUnderway(): boolean {
  return exiting;
}

/**
 * Releases every lock this process holds, each through its backend (waiting at most a few
 * seconds), then ends the process with `code`. Called again meanwhile (a second Ctrl-C), it ends
 * the process at once.
 */
export async function exitReleasing(code: number): Promise<never> {
  if (exiting) exitNow(code);
  exiting = true;
  // should the run's own work end first (a statement the release cut short fails), it ends with this code
  process.exitCode = code;
  const bound = new Promise<void>((resolve) => setTimeout(resolve, RELEASE_BOUND_MS).unref());
  await Promise.race([Promise.allSettled([...guarded].map((lock) => lock.release())), bound]);
  exitNow(code);
}
