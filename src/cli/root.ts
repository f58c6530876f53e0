/**
 * Where a manifest's state lives (docs/architecture.md, "State, journal and locks"): in the
 * `.adsctl/` of its configuration root, as Terraform keeps state with the configuration's root.
 * The root of a manifest file is the nearest directory at or above it that already holds
 * `.adsctl/` or `adsctl.yaml` (the root's configuration, src/state/config-file.ts), looking no higher
 * than the top of its git repository; a manifest without one yet takes the directory the command was given. So `plan accounts`, `plan` from the repository root,
 * `plan accounts/brand.yaml` and an `apply` of a saved plan from anywhere all find one state.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { findManifestFiles } from '../manifest/files.js';
import { CONFIG_FILE } from '../state/config-file.js';

const isDirectory = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

/** The directory a command's path names: the directory itself, or a file's directory (absolute). */
export function givenDirectory(path: string): string {
  const abs = resolve(path);
  return isDirectory(abs) ? abs : dirname(abs);
}

/** The root of the manifest `file` (see the file comment); `fallback` when no `.adsctl/` is found. */
export function manifestRoot(file: string, fallback: string): string {
  for (let dir = dirname(resolve(file)); ; dir = dirname(dir)) {
    if (isDirectory(join(dir, '.adsctl')) || existsSync(join(dir, CONFIG_FILE))) return dir;
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return resolve(fallback);
  }
}

/**
 * The roots whose state a command about `path` reads (`state list PATH`, `force-unlock ID PATH`):
 * the roots of the manifests under it, else the nearest `.adsctl/` at or above it, else the
 * directory itself. Sorted, without repeats.
 */
export function stateRoots(path: string): string[] {
  const given = givenDirectory(path);
  const { files } = findManifestFiles(path);
  const roots = new Set(files.map((f) => manifestRoot(f, given)));
  if (roots.size === 0) roots.add(manifestRoot(join(given, 'none'), given));
  return [...roots].sort();
}

export { cacheDirOf, stateDirOf } from '../state/location.js';

/**
 * The configuration root of an account of a saved plan applied from `planFile`: its root recorded
 * relative to the plan file, else the absolute one, whichever exists (a plan moved with its
 * checkout, or applied in place); a plan that records none uses the plan file's directory.
 * Undefined when the recorded roots exist nowhere.
 */
export function savedPlanRoot(account: { root?: string; rootFromPlanFile?: string }, planFile: string): string | undefined {
  const candidates = [account.rootFromPlanFile === undefined ? undefined : resolve(dirname(resolve(planFile)), account.rootFromPlanFile), account.root].filter((c): c is string => c !== undefined);
  if (candidates.length === 0) return givenDirectory(planFile);
  return candidates.find(isDirectory);
}

/**
 * Where a manifest account's state is, and its key there: the account id when the manifest gives
 * one, else the manifest file relative to its root (an account adsctl is to create).
 */
export function accountLocation(account: { file: string; accountId?: string; key: string }, given: string): { root: string; key: string } {
  const root = manifestRoot(account.file, given);
  return { root, key: account.accountId === undefined ? relative(root, resolve(account.file)) : account.key };
}
