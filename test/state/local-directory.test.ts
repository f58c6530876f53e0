/**
 * `directoryProblem`: whether a directory of `.adsctl/` can be used, told as one line that names
 * the path in the way and what to do. Permission bits stop no write of root's, so the cases of a
 * directory this user cannot write run only as another user.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { directoryProblem } from '../../src/state/local-directory.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'adsctl-local-directory-'));
});
afterEach(() => {
  chmodSync(root, 0o755);
  rmSync(root, { recursive: true, force: true });
});

const asRoot = process.getuid?.() === 0;

describe('directoryProblem', () => {
  it.each([
    { name: 'a directory that exists', files: [], dirs: ['.adsctl/state'], write: true, says: undefined },
    { name: 'a directory not made yet', files: [], dirs: [], write: true, says: undefined },
    { name: 'a file where the directory belongs', files: ['.adsctl/state'], dirs: ['.adsctl'], write: false, says: ['.adsctl/state is a file, where adsctl keeps the state in a directory: move the file away'] },
    { name: 'a file where a parent belongs', files: ['.adsctl'], dirs: [], write: true, says: ['.adsctl is a file, where adsctl keeps the state in a directory'] },
  ])('$name', ({ files, dirs, write, says }) => {
    for (const dir of dirs) mkdirSync(join(root, dir), { recursive: true });
    for (const file of files) writeFileSync(join(root, file), 'x');
    const problem = directoryProblem(join(root, '.adsctl', 'state'), 'the state', write);
    if (says === undefined) return expect(problem).toBeUndefined();
    for (const part of says) expect(problem).toContain(part);
    expect(problem).toContain(root);
  });

  it.skipIf(asRoot).each([
    { name: 'a directory this user cannot write', made: '.adsctl/state', locked: '.adsctl/state', says: '.adsctl/state is not writable by this user, and adsctl keeps the state there: make it writable' },
    { name: 'a parent this user cannot write, where the directory is to be made', made: '.adsctl', locked: '.adsctl', says: 'adsctl cannot create' },
  ])('$name', ({ made, locked, says }) => {
    mkdirSync(join(root, made), { recursive: true });
    chmodSync(join(root, locked), 0o555);
    try {
      expect(directoryProblem(join(root, '.adsctl', 'state'), 'the state', true)).toContain(says);
      expect(directoryProblem(join(root, '.adsctl', 'state'), 'the state', false)).toBeUndefined();
    } finally {
      chmodSync(join(root, locked), 0o755);
    }
  });
});
