/**
 * A stand-in for actions/cache, actions/cache/restore and actions/cache/save in tests of the
 * example workflows (test/support/workflow-run.ts): each `path` of a step (one per line, a `*`
 * allowed in its last segment) is kept in a directory of its own under `store`, the last save
 * winning, as a restore key that matches every saved key would restore the newest. Keys are not
 * read: the example keys its caches per run and restores by prefix.
 */
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { WorkflowStep } from './workflow-run.js';

/** The files and directories under `workdir` that `pattern` names, relative to it. */
function matching(workdir: string, pattern: string): string[] {
  if (!pattern.includes('*')) return existsSync(join(workdir, pattern)) ? [pattern] : [];
  const parent = dirname(pattern);
  if (parent.includes('*')) throw new Error(`cache path ${pattern}: a * is handled in the last segment only`);
  const last = new RegExp(`^${pattern.slice(parent.length + 1).split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return existsSync(join(workdir, parent)) ? readdirSync(join(workdir, parent)).filter((n) => last.test(n)).map((n) => join(parent, n)) : [];
}

const patterns = (step: WorkflowStep): string[] =>
  String(step.with?.['path'] ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** Restores and saves the paths of cache steps to and from `store`. */
export function actionsCache(store: string): { restore(step: WorkflowStep, workdir: string): void; save(step: WorkflowStep, workdir: string): void } {
  const kept = (pattern: string): string => join(store, encodeURIComponent(pattern));
  return {
    restore(step, workdir) {
      for (const pattern of patterns(step)) if (existsSync(kept(pattern))) cpSync(kept(pattern), workdir, { recursive: true });
    },
    save(step, workdir) {
      for (const pattern of patterns(step)) {
        const found = matching(workdir, pattern);
        // as actions/cache: nothing to save is a warning, and leaves the last cache as it was
        if (found.length === 0) continue;
        rmSync(kept(pattern), { recursive: true, force: true });
        for (const path of found) cpSync(join(workdir, path), join(kept(pattern), path), { recursive: true });
      }
    },
  };
}
