/**
 * A file a manifest names leaves the machine only when it is a regular file inside the project
 * root within the service's size (docs/manifest.md, "Files a manifest names"). Through the built
 * CLI against the emulator: a media file that is a symbolic link to the process environment, a
 * `../` path, an absolute path out of the root, a FIFO, a file over the service's size for an
 * image, and a member file linked out of the root are each refused by `plan` at the file's line and
 * column with its code, exit 1, and no request reaches the emulator (its own request count). A link
 * that stays inside the root is uploaded; a saved plan whose file became a link out of the root
 * since is refused by apply with nothing uploaded or written.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';
import { validPng } from '../support/png-image.js';

let emulator: RunningEmulator;
/** A folder beside the workspaces, outside every project root: what must never be sent. */
let elsewhere: string;
const workspaces: Workspace[] = [];

/** What the emulator has been asked so far, its own stats requests left out: in all, uploads, and writes. */
async function served(): Promise<{ requests: number; uploads: number; writes: number }> {
  const res = await request(`${emulator.info.base_url}/_emulator/stats`);
  const stats = (await res.body.json()) as { total: number; bySurface: Record<string, number>; byMethod: Record<string, number> };
  const m = stats.byMethod;
  return { requests: stats.total - (stats.bySurface['control'] ?? 0), uploads: stats.bySurface['upload'] ?? 0, writes: (m['POST'] ?? 0) + (m['PUT'] ?? 0) + (m['DELETE'] ?? 0) };
}

const emails = (n: number): string => ['email', ...Array.from({ length: n }, (_, i) => `person-${i}@example.com`)].join('\n') + '\n';

/** A workspace whose manifest uploads `file` as the media `hero` (line 8, column 17). */
function mediaWorkspace(file: string): Workspace {
  const ws = createWorkspace(emulator.info, `${seededAccountHead(emulator.info.base_url)}media:\n  hero: { file: ${file}, name: E2E Hero }\n`);
  workspaces.push(ws);
  return ws;
}

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'adsctl-e2e-elsewhere-')));
  writeFileSync(join(elsewhere, 'secret.png'), validPng(16, 16, 7));
  writeFileSync(join(elsewhere, 'members.csv'), emails(150));
});
afterAll(async () => {
  await emulator.close();
  for (const ws of workspaces) ws.remove();
  rmSync(elsewhere, { recursive: true, force: true });
});

describe('plan refuses a file it must not read, at its position, sending nothing', () => {
  it.each([
    ['a symbolic link to the process environment', 'leak.png', (dir: string) => symlinkSync('/proc/self/environ', join(dir, 'leak.png')), 'file-outside-root', (dir: string) => `file "leak.png" is a symbolic link to /proc/self/environ, outside the project root ${dir}: `],
    ['a ../ path', (): string => `../${basename(elsewhere)}/secret.png`, () => {}, 'file-outside-root', (dir: string) => `file "../${basename(elsewhere)}/secret.png" is ${elsewhere}/secret.png, outside the project root ${dir}: `],
    ['an absolute path outside the root', (): string => join(elsewhere, 'secret.png'), () => {}, 'file-outside-root', (dir: string) => `file "${elsewhere}/secret.png" is outside the project root ${dir}: `],
    ['a FIFO', 'fifo.png', (dir: string) => execFileSync('mkfifo', [join(dir, 'fifo.png')]), 'not-a-regular-file', () => 'file "fifo.png" is a FIFO (named pipe), not a regular file: '],
    [
      'a file over the service\'s size for an image',
      'big.png',
      (dir: string) => {
        writeFileSync(join(dir, 'big.png'), validPng(16, 16));
        truncateSync(join(dir, 'big.png'), 5 * 1024 * 1024 + 1);
      },
      'file-too-large',
      () => 'file "big.png" is 5,242,881 bytes, more than the 5 MiB (5,242,880 bytes) the service takes for an image: make it smaller',
    ],
  ])('%s', async (_what, file, make, code, words) => {
    const name = typeof file === 'string' ? file : file();
    const ws = mediaWorkspace(name);
    make(ws.dir);
    const before = await served();
    const run = await ws.run(['plan']);
    expect(run.code, transcript(run)).toBe(1);
    expect(run.stderr).toContain(`account.yaml:8:17: error ${code}: ${words(realpathSync(ws.dir))}`);
    expect(run.stderr.match(/^\S+:\d+:\d+: error /gm)).toHaveLength(1);
    expect(await served()).toEqual(before);
  });

  it('an audience member file linked out of the root', async () => {
    const ws = createWorkspace(emulator.info, `${seededAccountHead(emulator.info.base_url)}custom_audiences:\n  fans:\n    name: E2E Fans\n    users: { file: members.csv }\n`);
    workspaces.push(ws);
    symlinkSync(join(elsewhere, 'members.csv'), join(ws.dir, 'members.csv'));
    const before = await served();
    for (const command of ['validate', 'plan']) {
      const run = await ws.run([command]);
      expect(run.code, transcript(run)).toBe(1);
      expect(run.stderr).toContain(`account.yaml:10:20: error file-outside-root: file "members.csv" is a symbolic link to ${join(elsewhere, 'members.csv')}, outside the project root`);
    }
    expect(await served()).toEqual(before);
  });
});

describe('a symbolic link that stays inside the root', () => {
  it('is uploaded; a saved plan whose file leaves the root since is refused by apply, nothing sent', async () => {
    const ws = mediaWorkspace('hero.png');
    mkdirSync(join(ws.dir, 'assets'));
    writeFileSync(join(ws.dir, 'assets', 'hero.png'), validPng(32, 32, 1));
    symlinkSync('assets/hero.png', join(ws.dir, 'hero.png'));
    const expectRun = async (args: string[], code: number): Promise<string> => {
      const run = await ws.run(args);
      expect(run.code, `adsctl ${args.join(' ')}\n${transcript(run)}`).toBe(code);
      return run.stdout + run.stderr;
    };
    await expectRun(['apply', '--auto-approve'], 0);
    expect(await expectRun(['plan', '--detailed-exitcode'], 0)).toContain('No changes.');

    // an edited picture is planned, then the link is pointed at the process environment
    writeFileSync(join(ws.dir, 'assets', 'hero.png'), validPng(32, 32, 2));
    await expectRun(['plan', '--out', 'saved.plan', '--detailed-exitcode'], 2);
    unlinkSync(join(ws.dir, 'hero.png'));
    symlinkSync('/proc/self/environ', join(ws.dir, 'hero.png'));
    const before = await served();
    const refused = await expectRun(['apply', 'saved.plan'], 1);
    expect(refused).toContain('media.hero: nothing was sent: file-outside-root: file "hero.png" is a symbolic link to /proc/self/environ, outside the project root');
    const after = await served();
    expect({ uploads: after.uploads, writes: after.writes }).toEqual({ uploads: before.uploads, writes: before.writes });

    unlinkSync(join(ws.dir, 'hero.png'));
    symlinkSync('assets/hero.png', join(ws.dir, 'hero.png'));
    await expectRun(['apply', '--auto-approve'], 0);
    expect(await expectRun(['plan', '--detailed-exitcode'], 0)).toContain('No changes.');
  });
});
