/**
 * Reading a file a manifest names without reading anything else of the machine (docs/manifest.md,
 * "Files a manifest names"). A file is read only when it is a regular file whose real path — every
 * symbolic link resolved — lies inside the project root (project-root.ts), and whose size is within
 * its kind's limit. The checks look at the path alone (`lstat`, `realpath`, `stat`): nothing is
 * opened before it passes them, so a FIFO or a device is never opened. The real path is then opened
 * with `O_NOFOLLOW` (and `O_NONBLOCK`, so a FIFO put in its place cannot block the open), and the
 * opened descriptor must be the very file checked (`fstat`: device, inode, a regular file, its
 * size): a file swapped between the check and the open is checked again, never read unchecked.
 * The manifest stage reads media files and checks member files with it, the plan reads member
 * files, and apply reads both again.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { quoteValue } from '../diag/quote.js';
import type { FileLimit, FileProblem, FileRead } from '../kinds/local-file.js';

/** A file that passed the checks: where it really is, and which file it is. */
interface CheckedFile {
  real: string;
  dev: number;
  ino: number;
  size: number;
}

/** A file a manifest names: where the process opens it, how the manifest writes it, the root it must lie in, and its kind's limit. */
interface NamedFile {
  /** The path as the process opens it. */
  path: string;
  /** The path as the manifest writes it (messages name the file by it). */
  shownAs: string;
  /** The project root (a real path) the file must lie inside. */
  root: string;
  limit: FileLimit;
  /** `manifest` for a manifest file itself, which messages name as such; default: a file a manifest names. */
  noun?: 'manifest';
}

/** How messages name the file: `file "media/hero.png"`, or `the manifest accounts/acme.yaml`. */
const subjectOf = (file: Pick<NamedFile, 'shownAs' | 'noun'>): string => (file.noun === 'manifest' ? `the manifest ${file.shownAs}` : `file ${quoteValue(file.shownAs)}`);

/** Flags of the one open: read only, the last component never followed, never blocking. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Times a file replaced between its check and its open is checked and opened again. */
const ATTEMPTS = 3;

const WHERE_ROOT =
  'adsctl reads only files inside the project root (the git work tree of the manifests; without git, the folder of adsctl.yaml or of the manifest), so that no other file of this machine reaches the service';

/** Whether the real path `real` lies strictly inside the folder `root`. */
function inside(root: string, real: string): boolean {
  const rel = relative(root, real);
  return rel !== '' && rel.split(/[\\/]/)[0] !== '..' && !isAbsolute(rel);
}

/** What a file that is not a regular file is, in words. */
function typeOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'a special file';
}

/** `5 MiB (5,242,880 bytes)`, `10 GB (10,000,000,000 bytes)`: a limit as people write it, and exactly. */
function limitText(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  const mib = bytes / (1024 * 1024);
  if (Number.isInteger(mib) && mib < 1024) return `${mib} MiB (${exact})`;
  const gb = bytes / 1e9;
  if (Number.isInteger(gb)) return `${gb} GB (${exact})`;
  return exact;
}

const problem = (code: FileProblem['code'], message: string): { problem: FileProblem } => ({ problem: { code, message } });

/** The problem of a file that does not exist, named as the manifest writes it (`shownAs`). */
export function fileMissing(file: Pick<NamedFile, 'shownAs' | 'noun'>): FileProblem {
  return { code: 'file-not-found', message: `${subjectOf(file)} does not exist (paths are relative to the manifest)` };
}

/** The refusal of a file the system does not let adsctl read (`EACCES`, ...). */
const unreadable = (file: NamedFile, error: unknown): { problem: FileProblem } =>
  problem('file-read', `${subjectOf(file)} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): give adsctl read access to it`);

/** The target a symbolic link names, for messages. */
function linkTarget(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return 'a path that cannot be read';
  }
}

/** A link's target as the link writes it (`/proc/self/environ`), with where it leads when written relative. */
function linkShown(path: string, real: string): string {
  const target = linkTarget(path);
  return isAbsolute(target) ? target : `${target} (${real})`;
}

/** The refusal of a file whose real path `real` lies outside `file.root`. */
function outsideRoot(file: NamedFile, link: Stats, real: string): { problem: FileProblem } {
  const linked = link.isSymbolicLink() || real !== resolve(file.path);
  const what = link.isSymbolicLink() ? `is a symbolic link to ${linkShown(file.path, real)},` : linked ? `leads through a symbolic link to ${real},` : isAbsolute(file.shownAs) ? 'is' : `is ${real},`;
  const fix = linked ? 'replace the link with a copy of the file inside the project' : 'copy the file into the project and name it by its path there';
  return problem('file-outside-root', `${subjectOf(file)} ${what} outside the project root ${file.root}: ${WHERE_ROOT}; ${fix}`);
}

/**
 * Checks the file `file` names by its path alone, opening nothing: it must exist, lie inside the
 * project root once every link is resolved, be a regular file, and be within its kind's limit.
 */
export function checkProjectFile(file: NamedFile): { checked: CheckedFile; problem?: undefined } | { checked?: undefined; problem: FileProblem } {
  let link: Stats;
  try {
    link = lstatSync(file.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { problem: fileMissing(file) };
    return unreadable(file, error);
  }
  let real: string;
  try {
    real = realpathSync.native(file.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (link.isSymbolicLink() && (code === 'ENOENT' || code === 'ENOTDIR')) {
      return problem('file-not-found', `${subjectOf(file)} is a symbolic link to ${linkTarget(file.path)}, which does not exist: replace the link with the file itself`);
    }
    return unreadable(file, error);
  }
  if (!inside(file.root, real)) return outsideRoot(file, link, real);
  let stats: Stats;
  try {
    stats = statSync(real);
  } catch (error) {
    return unreadable(file, error);
  }
  if (!stats.isFile()) {
    const what = link.isSymbolicLink() ? `is a symbolic link to ${linkShown(file.path, real)}, ${typeOf(stats)}` : `is ${typeOf(stats)}`;
    return problem('not-a-regular-file', `${subjectOf(file)} ${what}, not a regular file: adsctl reads only regular files (a pipe or a device could hold the run forever or give endless bytes); name the file itself`);
  }
  if (stats.size > file.limit.bytes) return tooLarge(file, stats.size);
  return { checked: { real, dev: stats.dev, ino: stats.ino, size: stats.size } };
}

/** The refusal of a file of `size` bytes, over its kind's limit. */
function tooLarge(file: NamedFile, size: number): { problem: FileProblem } {
  const limit = file.limit;
  return problem(
    'file-too-large',
    `${subjectOf(file)} is ${size.toLocaleString('en-US')} bytes, more than the ${limitText(limit.bytes)} the service takes for ${limit.what}: make it smaller`,
  );
}

/** The refusal of a file that was replaced each time it was opened. */
function keptChanging(file: NamedFile): { problem: FileProblem } {
  return problem('file-changed', `${subjectOf(file)} was replaced while adsctl opened it, ${ATTEMPTS} times over; nothing was read from it: run again once nothing writes it`);
}

/** Whether an opened descriptor's `stats` are those of the file checked. */
const isChecked = (stats: Stats, checked: CheckedFile): boolean => stats.isFile() && stats.dev === checked.dev && stats.ino === checked.ino;

/** An open that failed because the path changed since its check (a link or nothing in its place), so it is checked again. */
const changedPath = (error: unknown): boolean => ['ELOOP', 'ENOENT', 'ENOTDIR', 'EMLINK'].includes(String((error as NodeJS.ErrnoException).code));

/** The first `size` bytes of the open file `fd` (its size when opened and checked: bytes written to it since are not read). */
function readSizeSync(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, buffer, at, size - at, at);
    if (n === 0) break;
    at += n;
  }
  return buffer.subarray(0, at);
}

/** The bytes of the file `file` names, read only once it passed the checks; for the manifest stage, which reads synchronously. */
export function readProjectFileSync(file: NamedFile): FileRead {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const check = checkProjectFile(file);
    if (check.problem !== undefined) return check;
    let fd: number;
    try {
      fd = openSync(check.checked.real, OPEN_FLAGS);
    } catch (error) {
      if (changedPath(error)) continue;
      return unreadable(file, error);
    }
    try {
      const stats = fstatSync(fd);
      if (!isChecked(stats, check.checked)) continue;
      if (stats.size > file.limit.bytes) return tooLarge(file, stats.size);
      return { bytes: readSizeSync(fd, stats.size) };
    } finally {
      closeSync(fd);
    }
  }
  return keptChanging(file);
}

/**
 * The file `file` names, opened only once it passed the checks, with its size as opened; the caller
 * reads it (`readChunks`) and closes it.
 */
export async function openProjectFile(file: NamedFile): Promise<{ handle: FileHandle; size: number; problem?: undefined } | { handle?: undefined; problem: FileProblem }> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const check = checkProjectFile(file);
    if (check.problem !== undefined) return check;
    let handle: FileHandle;
    try {
      handle = await open(check.checked.real, OPEN_FLAGS);
    } catch (error) {
      if (changedPath(error)) continue;
      return unreadable(file, error);
    }
    let kept = false;
    try {
      const stats = await handle.stat();
      if (!isChecked(stats, check.checked)) continue;
      if (stats.size > file.limit.bytes) return tooLarge(file, stats.size);
      kept = true;
      return { handle, size: stats.size };
    } finally {
      if (!kept) await handle.close();
    }
  }
  return keptChanging(file);
}

/**
 * The bytes of an opened file in chunks of at most `chunkBytes`, up to `size` bytes (its size when
 * opened and checked): bytes written to it since are not read.
 */
export async function* readChunks(handle: FileHandle, size: number, chunkBytes: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < size; ) {
    const buffer = Buffer.allocUnsafe(Math.min(chunkBytes, size - at));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
    if (bytesRead === 0) return;
    at += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** The bytes of the file `file` names, read only once it passed the checks; for apply, which reads asynchronously. */
export async function readProjectFile(file: NamedFile): Promise<FileRead> {
  const opened = await openProjectFile(file);
  if (opened.problem !== undefined) return opened;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of readChunks(opened.handle, opened.size, 1 << 20)) chunks.push(chunk);
    return { bytes: Buffer.concat(chunks) };
  } finally {
    await opened.handle.close();
  }
}
