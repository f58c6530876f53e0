/**
 * `adsctl --version` prints the version of the package.json that ships with adsctl, read at run
 * time: from the sources (as vitest runs them) and from the built CLI (`bin/adsctl.js` → `dist/`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageVersion } from '../../src/cli/version.js';
import { BIN } from '../support/cli.js';
import { runCli } from '../support/run-cli.js';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const copy = mkdtempSync(join(tmpdir(), 'adsctl-version-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('adsctl --version', () => {
  it('is the version field of package.json', () => {
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(packageVersion()).toBe(manifest.version);
  });

  it.each([['--version'], ['-V']])('%s prints it from the built CLI and exits 0', async (flag) => {
    const run = await runCli([flag]);
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
  });

  it('follows the package.json installed beside the built CLI, not a constant', () => {
    const root = dirname(dirname(BIN));
    for (const part of ['bin', 'dist', 'schemas']) cpSync(join(root, part), join(copy, part), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
    writeFileSync(join(copy, 'package.json'), JSON.stringify({ ...manifest, version: '9.8.7-test.1' }));
    const run = spawnSync(process.execPath, [join(copy, 'bin', 'adsctl.js'), '--version'], { encoding: 'utf8' });
    expect(run, run.stderr).toMatchObject({ status: 0, stdout: '9.8.7-test.1\n' });
  });
});
