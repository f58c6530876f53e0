/**
 * The project root of a manifest: the folder inside which the files it names (media files, member
 * lists) must lie (docs/manifest.md, "Files a manifest names"). It is the git work tree that holds
 * the manifest — the nearest folder at or above the manifest's own that holds `.git` (git itself
 * is not run) — and where there is no git, the nearest folder at or above it that holds
 * `adsctl.yaml`, else the manifest's folder. The plan and apply find the same root from the same
 * folder, so a saved plan applied later is held to the root it was made under.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CONFIG_FILE } from '../state/config-file.js';

/** `path` with every symbolic link resolved, or `path` itself (absolute) when it cannot be. */
function realOf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The project root (a real path: symbolic links resolved) of the manifests in `manifestDir`. The
 * folders are walked as written, so a manifest folder reached through a link belongs to the work
 * tree that holds the link.
 */
export function projectRootOf(manifestDir: string): string {
  const start = resolve(manifestDir);
  let configured: string | undefined;
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return realOf(dir);
    configured ??= existsSync(join(dir, CONFIG_FILE)) ? dir : undefined;
    if (dirname(dir) === dir) return realOf(configured ?? start);
  }
}

/** `projectRootOf`, each folder walked once: for a run that meets many files of few manifests. */
export function projectRoots(): (manifestDir: string) => string {
  const roots = new Map<string, string>();
  return (manifestDir) => {
    const key = resolve(manifestDir);
    let root = roots.get(key);
    if (root === undefined) roots.set(key, (root = projectRootOf(key)));
    return root;
  };
}
