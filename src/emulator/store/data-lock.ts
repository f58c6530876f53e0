/**
 * One process at a time on a `--data` file: two emulators (or two adsctl runs on one `local`
 * endpoint) would each load the file, write ids from the same counter and overwrite each other's
 * snapshot. A lock file made exclusively holds the owner's pid; a lock whose process is gone (a
 * killed run) is taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/** Thrown when another live process holds the data file. */
export class DataFileInUse extends Error {
  readonly code = 'EDATAINUSE';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of `file`; returns the function that releases it. */
export function lockDataFile(file: string): () => void {
  const path = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
        throw new DataFileInUse(`${file} is in use by another emulator or adsctl run (pid ${holder})`);
      }
      unlinkSync(path); // left by a process that is gone
    }
  }
  throw new DataFileInUse(`${file}: could not take its lock`);
}
