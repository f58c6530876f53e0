/**
 * Whether a directory of a configuration root's `.adsctl/` (the state, the lookup cache) can be
 * used: every part of its path that exists is a directory, and, where adsctl is to write, the
 * directory is writable — or, while it does not exist yet, the nearest part that does, where it
 * will be made. A file in the way or a directory this user cannot write is the machine's
 * problem, not adsctl's: it is told in one line that names the path and what to do.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** The first existing part of `dir` (itself or a parent), whether it is a directory, or the error that stops looking. */
function nearestExisting(dir: string): { path: string; directory: boolean } | { path: string; code: string } {
  for (let path = dir; ; path = dirname(path)) {
    try {
      return { path, directory: statSync(path).isDirectory() };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
      // absent (made when first written), or below a file, which is found further up
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(path) !== path) continue;
      return { path, code };
    }
  }
}

/**
 * What keeps adsctl from using `dir` to keep `what` (`the state`, `the lookup cache`), or
 * undefined when nothing does; with `write`, the directory must also be writable (or creatable).
 */
export function directoryProblem(dir: string, what: string, write: boolean): string | undefined {
  const found = nearestExisting(dir);
  if ('code' in found) return `adsctl cannot reach ${found.path} (${found.code}), where it keeps ${what}: give this user access to it, then run the command again`;
  if (!found.directory) return `${found.path} is a file, where adsctl keeps ${what} in a directory: move the file away, then run the command again`;
  if (!write) return undefined;
  try {
    accessSync(found.path, constants.W_OK);
    return undefined;
  } catch {
    if (found.path === dir) return `${dir} is not writable by this user, and adsctl keeps ${what} there: make it writable (chmod u+w, or chown it to this user), or run adsctl as a user who can write it`;
    return `adsctl cannot create ${dir}, where it keeps ${what}: ${found.path} is not writable by this user; make it writable, or create ${dir} writable by this user, then run the command again`;
  }
}
