/** Writing a file so that a reader sees the old content or the new, whole: aside, fsync, rename. */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { EnvironmentError } from '../diag/environment-error.js';

/**
 * The suffix of the temporary files this process writes beside the state: its pid, by which
 * `removeLeftovers` (leftovers.ts) knows a run that is gone, and a random tag, so that two
 * processes with one pid (two containers, each adsctl as pid 1) never write the same file.
 */
export const TMP_SUFFIX = `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;

/**
 * Checked at the moment of writing, just before the rename that makes a write visible: throws when
 * this run no longer holds the lock the write is made under (lock.ts, `Lock.verify`).
 */
export type Fence = () => void;

/**
 * Writes `text` to `path` atomically (through `<path>` + `TMP_SUFFIX`, created exclusively),
 * creating its directory. A large text can come as pieces, written one after the other, so that
 * it never exists whole in memory. With a `fence`, the write is made visible only if the fence
 * holds just before the rename; and since the run that takes a lock over removes the temporary
 * files it finds (leftovers.ts), a run stopped between the fence and the rename finds its file
 * gone and fails the fence then, rather than replacing what the new holder wrote.
 */
export function writeFileAtomic(path: string, text: string | Iterable<string>, mode = 0o644, fence?: Fence): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}${TMP_SUFFIX}`;
  const fd = openSync(tmp, 'wx', mode);
  try {
    for (const piece of typeof text === 'string' ? [text] : text) writeSync(fd, piece);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    fence?.();
    renameSync(tmp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    rmSync(tmp, { force: true });
    // the file written aside was removed by the run that took the lock over
    if (code === 'ENOENT' && fence !== undefined) fence();
    if (code !== 'EISDIR' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    throw new EnvironmentError(`${path} is a directory, where adsctl keeps a file: move it away and run the command again`);
  }
}
