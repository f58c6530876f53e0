/**
 * Which files of a directory git tracks, so that a kept version of the state that rotation removes
 * is never removed from a repository without a word (local-store.ts). Git is asked once per
 * directory, `git ls-files -z` run in it, and only when a `.git` (a directory, or the file of a
 * worktree or submodule) is found at or above it; without one, or without git, nothing is tracked.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Whether `dir` or a directory above it holds `.git`. */
function inWorkTree(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return true;
    if (dirname(at) === at) return false;
  }
}

/**
 * The names, relative to `dir`, of the files under it that the git repository holding it tracks;
 * empty when no repository holds it or git cannot say.
 */
export function gitTrackedFiles(dir: string): Set<string> {
  if (!existsSync(dir) || !inWorkTree(dir)) return new Set();
  const listed = spawnSync('git', ['ls-files', '-z', '--', '.'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
  if (listed.status !== 0 || typeof listed.stdout !== 'string') return new Set();
  return new Set(listed.stdout.split('\0').filter((name) => name !== ''));
}
