/** Writing a file so that a reader sees the old content or the new, whole: aside, fsync, rename. */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { EnvironmentError } from '../diag/environment-error.js';

/**
 * Writes `text` to `path` atomically (through `<path>.tmp-PID`), creating its directory. A large
 * text can come as pieces, written one after the other, so that it never exists whole in memory.
 */
export function writeFileAtomic(path: string, text: string | Iterable<string>, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w', mode);
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
    renameSync(tmp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    rmSync(tmp, { force: true });
    throw new EnvironmentError(`${path} is a directory, where adsctl keeps a file: move it away and run the command again`);
  }
}
