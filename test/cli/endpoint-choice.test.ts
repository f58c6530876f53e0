/**
 * One rule chooses every command's endpoint (`chooseEndpoint`, docs/architecture.md, "Endpoints"):
 * `--endpoint` where the command has it, else ADSCTL_ENDPOINT, else the manifest's `endpoint:`
 * where the command has a manifest, else `local`. `auth` and `insights`, which went to production
 * when nothing was set, now go to `local` like the others.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEndpoint, type EndpointGiven } from '../../src/api/endpoint-choice.js';
import { transcript } from '../support/e2e.js';
import { runCli } from '../support/run-cli.js';

describe('chooseEndpoint', () => {
  it.each<{ given: EndpointGiven; name: string; source: string }>([
    { given: { flag: 'sandbox', environment: 'production', manifest: 'http://127.0.0.1:1' }, name: 'sandbox', source: 'flag' },
    { given: { flag: '', environment: 'production', manifest: 'http://127.0.0.1:1' }, name: 'production', source: 'environment' },
    { given: { environment: 'production', manifest: 'http://127.0.0.1:1' }, name: 'production', source: 'environment' },
    { given: { environment: '', manifest: 'http://127.0.0.1:1' }, name: 'http://127.0.0.1:1', source: 'manifest' },
    { given: { manifest: 'sandbox' }, name: 'sandbox', source: 'manifest' },
    { given: { manifest: '' }, name: 'local', source: 'default' },
    { given: {}, name: 'local', source: 'default' },
    { given: { flag: undefined, environment: undefined }, name: 'local', source: 'default' },
  ])('$given → $name ($source)', ({ given, name, source }) => {
    expect(chooseEndpoint(given)).toEqual({ name, source });
  });
});

describe('commands without a manifest', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'adsctl-endpoint-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const bare = { XDG_CONFIG_HOME: '/nonexistent', NO_COLOR: '1' };

  it('auth whoami with nothing set talks to local, the embedded emulator', async () => {
    const run = await runCli(['auth', 'whoami'], { env: bare, cwd: dir });
    expect(run.code, transcript(run)).toBe(0);
    expect(run.stdout).toMatch(/^user \d+ at local$/m);
  });

  it('insights keywords with nothing set talks to local', async () => {
    const run = await runCli(['insights', 'keywords', 'hiking', '--json'], { env: bare, cwd: dir });
    expect(run.code, transcript(run)).toBe(0);
    expect(() => JSON.parse(run.stdout) as unknown).not.toThrow();
  });

  it('--endpoint wins over ADSCTL_ENDPOINT', async () => {
    const run = await runCli(['auth', 'whoami', '--endpoint', 'local'], { env: { ...bare, ADSCTL_ENDPOINT: 'http://127.0.0.1:9' }, cwd: dir });
    expect(run.code, transcript(run)).toBe(0);
    expect(run.stdout).toMatch(/ at local$/m);
  });

  it('a bad ADSCTL_ENDPOINT is refused naming it, as for every command that reads it', async () => {
    for (const command of [['auth', 'whoami'], ['insights', 'keywords', 'hiking'], ['generate', dir]]) {
      const run = await runCli(command, { env: { ...bare, ADSCTL_ENDPOINT: 'staging' }, cwd: dir });
      expect(run.code, transcript(run)).toBe(1);
      expect(run.stderr).toMatch(/^Error: ADSCTL_ENDPOINT="staging" is not an endpoint/);
    }
  });
});
