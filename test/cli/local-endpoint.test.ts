import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnEmulator } from '../support/cli.js';
import { runCli } from '../support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-local-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('endpoint: local with its data in use by another run', () => {
  it('is refused at once, or waited for with --lock-timeout', async () => {
    cpSync(new URL('../../examples/quickstart/account.yaml', import.meta.url), join(dir, 'account.yaml'));
    mkdirSync(join(dir, '.adsctl'), { recursive: true });
    const holder = await spawnEmulator(['--data', join(dir, '.adsctl', 'emulator.json')]);

    const refused = await runCli(['plan', '--no-color'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the embedded emulator \(endpoint local\) is busy: .* in use by another emulator or adsctl run \(pid \d+\)/);

    const waiting = runCli(['plan', '--no-color', '--lock-timeout', '30s'], { cwd: dir });
    setTimeout(() => holder.child.kill('SIGTERM'), 500);
    const run = await waiting;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Plan: 8 to add, 0 to change, 0 to destroy.');
    expect(await holder.exited).toBe(0);
  });
});
