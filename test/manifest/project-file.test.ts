/**
 * The files a manifest names are read only when they are regular files inside the project root
 * within their kind's limit (src/manifest/project-file.ts): each way a path can lead elsewhere —
 * `../`, an absolute path, a symbolic link to a file or through a linked folder, a link to the
 * process environment — and each file that is not a regular one, checked by its path alone, with
 * the code and the words of its message; the project root found from the manifest's folder; the
 * sizes held to the upload service's own (the emulator's copy).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIZE_LIMITS } from '../../src/emulator/upload/uploaded-media.js';
import { MEDIA_TYPES } from '../../src/kinds/media-file.js';
import { MEMBER_FILE_LIMIT } from '../../src/kinds/member-file.js';
import { checkProjectFile, openProjectFile, readChunks, readProjectFile, readProjectFileSync } from '../../src/manifest/project-file.js';
import { projectRootOf } from '../../src/manifest/project-root.js';
import { SERVICE_LIMITS } from '../../src/service/limits.js';

let top: string;
/** The project: a git work tree (its `.git` a folder) holding `accounts/`, the manifests' folder. */
let root: string;
let manifests: string;
let outside: string;

const LIMIT = { bytes: 100, what: 'a test file' };

beforeAll(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'adsctl-project-file-')));
  root = join(top, 'project');
  manifests = join(root, 'accounts');
  outside = join(top, 'elsewhere');
  for (const dir of [join(root, '.git'), join(manifests, 'media'), join(manifests, 'empty-dir'), outside]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(manifests, 'media', 'hero.png'), 'png bytes');
  writeFileSync(join(root, 'shared.png'), 'png bytes');
  writeFileSync(join(outside, 'secret.png'), 'secret');
  writeFileSync(join(manifests, 'exactly-100.png'), 'x'.repeat(100));
  writeFileSync(join(manifests, 'sparse.png'), '');
  truncateSync(join(manifests, 'sparse.png'), 101);
  symlinkSync('media/hero.png', join(manifests, 'link-inside.png'));
  symlinkSync('../shared.png', join(manifests, 'link-up-inside.png'));
  symlinkSync('media', join(manifests, 'linked-media'));
  symlinkSync('/proc/self/environ', join(manifests, 'leak.png'));
  symlinkSync(join(outside, 'secret.png'), join(manifests, 'link-outside.png'));
  symlinkSync('../../elsewhere/secret.png', join(manifests, 'link-outside-relative.png'));
  symlinkSync(outside, join(manifests, 'linked-elsewhere'));
  symlinkSync('/dev/zero', join(manifests, 'zero.png'));
  symlinkSync('media/none.png', join(manifests, 'dangling.png'));
  execFileSync('mkfifo', [join(manifests, 'fifo.png')]);
  symlinkSync('fifo.png', join(manifests, 'link-to-fifo.png'));
});
afterAll(() => rmSync(top, { recursive: true, force: true }));

describe('checkProjectFile', () => {
  it.each([
    ['a file beside the manifest', 'media/hero.png', undefined, undefined],
    ['a symbolic link to a file inside the root', 'link-inside.png', undefined, undefined],
    ['a link up the tree, still inside the root', 'link-up-inside.png', undefined, undefined],
    ['a file through a linked folder inside the root', 'linked-media/hero.png', undefined, undefined],
    ['a file of exactly the limit', 'exactly-100.png', undefined, undefined],
    ['a file that does not exist', 'media/none.png', 'file-not-found', 'file "media/none.png" does not exist'],
    ['a dangling link', 'dangling.png', 'file-not-found', 'file "dangling.png" is a symbolic link to media/none.png, which does not exist'],
    ['a ../ path out of the root', '../../elsewhere/secret.png', 'file-outside-root', 'file "../../elsewhere/secret.png" is <top>/elsewhere/secret.png, outside the project root <top>/project'],
    ['an absolute path out of the root', '<top>/elsewhere/secret.png', 'file-outside-root', 'file "<top>/elsewhere/secret.png" is outside the project root <top>/project'],
    ['a link to the process environment', 'leak.png', 'file-outside-root', 'file "leak.png" is a symbolic link to /proc/self/environ, outside the project root <top>/project'],
    ['an absolute link out of the root', 'link-outside.png', 'file-outside-root', 'is a symbolic link to <top>/elsewhere/secret.png, outside'],
    ['a relative link out of the root', 'link-outside-relative.png', 'file-outside-root', 'is a symbolic link to ../../elsewhere/secret.png (<top>/elsewhere/secret.png), outside'],
    ['a file through a linked folder out of the root', 'linked-elsewhere/secret.png', 'file-outside-root', 'leads through a symbolic link to <top>/elsewhere/secret.png, outside'],
    ['a link to a device', 'zero.png', 'file-outside-root', 'is a symbolic link to /dev/zero, outside'],
    ['a FIFO', 'fifo.png', 'not-a-regular-file', 'file "fifo.png" is a FIFO (named pipe), not a regular file'],
    ['a link to a FIFO inside the root', 'link-to-fifo.png', 'not-a-regular-file', 'is a symbolic link to fifo.png (<top>/project/accounts/fifo.png), a FIFO (named pipe), not a regular file'],
    ['a directory', 'empty-dir', 'not-a-regular-file', 'file "empty-dir" is a directory, not a regular file'],
    ['a file one byte over the limit (sparse)', 'sparse.png', 'file-too-large', 'file "sparse.png" is 101 bytes, more than the 100 bytes the service takes for a test file: make it smaller'],
  ])('%s', (_what, written, code, words) => {
    const shownAs = written.replaceAll('<top>', top);
    const path = shownAs.startsWith('/') ? shownAs : join(manifests, shownAs);
    const check = checkProjectFile({ path, shownAs, root: projectRootOf(manifests), limit: LIMIT });
    expect(check.problem?.code).toBe(code);
    if (words !== undefined) expect(check.problem?.message).toContain(words.replaceAll('<top>', top));
  });

  it('says what to do with each refusal', () => {
    const advice = (shownAs: string): string | undefined => checkProjectFile({ path: join(manifests, shownAs), shownAs, root, limit: LIMIT }).problem?.message;
    expect(advice('leak.png')).toMatch(/adsctl reads only files inside the project root .*; replace the link with a copy of the file inside the project$/);
    expect(advice('../../elsewhere/secret.png')).toMatch(/; copy the file into the project and name it by its path there$/);
    expect(advice('fifo.png')).toMatch(/; name the file itself$/);
  });
});

describe('reading a checked file', () => {
  const named = (shownAs: string) => ({ path: join(manifests, shownAs), shownAs, root, limit: LIMIT });

  it('reads a file inside the root, through links that stay inside', async () => {
    expect(readProjectFileSync(named('link-inside.png')).bytes?.toString()).toBe('png bytes');
    expect((await readProjectFile(named('linked-media/hero.png'))).bytes?.toString()).toBe('png bytes');
  });

  it('opens nothing it refuses: a FIFO is refused at once, neither read nor waited on', async () => {
    expect(readProjectFileSync(named('fifo.png')).problem?.code).toBe('not-a-regular-file');
    expect((await openProjectFile(named('fifo.png'))).problem?.code).toBe('not-a-regular-file');
    expect((await openProjectFile(named('leak.png'))).problem?.code).toBe('file-outside-root');
  });

  it('reads an opened file only as far as its size when checked', async () => {
    const path = join(manifests, 'growing.csv');
    writeFileSync(path, 'email\n');
    const opened = await openProjectFile(named('growing.csv'));
    if (opened.problem !== undefined) throw new Error(opened.problem.message);
    try {
      writeFileSync(path, 'email\nlater@example.com\n', { flag: 'a' });
      const chunks: Buffer[] = [];
      for await (const chunk of readChunks(opened.handle, opened.size, 2)) chunks.push(chunk);
      expect(Buffer.concat(chunks).toString()).toBe('email\n');
    } finally {
      await opened.handle.close();
    }
  });
});

describe('projectRootOf', () => {
  it.each([
    ['the git work tree that holds the manifests', (): string[] => [join(root, 'accounts'), root]],
    ['the work tree from a folder below the manifests', (): string[] => [join(root, 'accounts', 'media'), root]],
    ['without git, the folder of adsctl.yaml above the manifests', (): string[] => {
      const config = join(top, 'configured');
      mkdirSync(join(config, 'accounts'), { recursive: true });
      writeFileSync(join(config, 'adsctl.yaml'), 'state: { backend: local }\n');
      return [join(config, 'accounts'), config];
    }],
    ['without git or adsctl.yaml, the manifests\' own folder', (): string[] => {
      const bare = join(top, 'bare', 'accounts');
      mkdirSync(bare, { recursive: true });
      return [bare, bare];
    }],
    ['a real path, reached through a linked folder', (): string[] => {
      symlinkSync(root, join(top, 'project-link'));
      return [join(top, 'project-link', 'accounts'), root];
    }],
  ])('is %s', (_what, made) => {
    const [manifestDir, expected] = made();
    expect(projectRootOf(manifestDir!)).toBe(expected);
  });
});

describe('the size limits', () => {
  it('are the upload service\'s own, as the emulator keeps them', () => {
    expect([SERVICE_LIMITS.mediaImageBytes, SERVICE_LIMITS.mediaGifBytes, SERVICE_LIMITS.mediaVideoBytes]).toEqual([SIZE_LIMITS.IMAGE, SIZE_LIMITS.GIF, SIZE_LIMITS.VIDEO]);
  });

  it.each([
    ['hero.png', SIZE_LIMITS.IMAGE, 'an image'],
    ['hero.JPG', SIZE_LIMITS.IMAGE, 'an image'],
    ['hero.webp', SIZE_LIMITS.IMAGE, 'an image'],
    ['loop.gif', SIZE_LIMITS.GIF, 'a GIF'],
    ['spot.mp4', SIZE_LIMITS.VIDEO, 'a video'],
    ['spot.mov', SIZE_LIMITS.VIDEO, 'a video'],
  ])('%s is held to %d bytes', (file, bytes, what) => {
    expect(MEDIA_TYPES.limitOf(file)).toEqual({ bytes, what });
  });

  it('a member file to the largest list the service takes', () => {
    expect(MEMBER_FILE_LIMIT).toEqual({ bytes: 10_000_000_000, what: 'a member list' });
  });
});
