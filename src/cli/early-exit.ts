/**
 * Ending the process before its command finishes — its stdout closed by the reader (`adsctl plan |
 * head -c 1`), or a bug thrown where nothing catches it — without leaving a state lock behind for
 * the next run to wait on. The commands that take locks name the state directories they use; an
 * early exit removes the lock files there that this process holds (their `pid` is ours: no other
 * living process can have it), then exits at once. Locks released normally are gone already.
 */
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { LockInfo } from '../state/lock.js';

const stateDirs = new Set<string>();

/** Records that this run may take locks in `stateDir`, so an early exit releases them. */
export function guardLocksIn(stateDir: string): void {
  stateDirs.add(stateDir);
}

function heldHere(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>).pid === process.pid;
  } catch {
    return false;
  }
}

/** Removes the lock files this process holds in the guarded directories; returns their paths. */
export function releaseHeldLocks(): string[] {
  const released: string[] = [];
  for (const dir of stateDirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (!name.endsWith('.lock') || !heldHere(path)) continue;
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
