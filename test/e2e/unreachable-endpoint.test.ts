/**
 * Issue 9, point 7: an endpoint that cannot be reached is one line naming it and exit 1, never a
 * stack trace. A name that does not resolve (`.invalid` never does, and fails locally) fails at
 * once; a refused connection is retried only within `--connect-timeout`. Nothing here calls a
 * real remote host: the refused port is one on 127.0.0.1 that was just freed.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, transcript, type Workspace } from '../support/e2e.js';
import { runCli, type CliRun } from '../support/run-cli.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let ws: Workspace;

/** A port on 127.0.0.1 that nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** `adsctl ...args` in the workspace with ADSCTL_ENDPOINT set to `endpoint`. */
const runAt = (endpoint: string, args: string[]): Promise<CliRun> => runCli(args, { env: { ...ws.env, ADSCTL_ENDPOINT: endpoint }, cwd: ws.dir });

const STACK_FRAME = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  const manifest = `version: 1
endpoint: ${emulator.info.base_url}
account:
  id: "${ACCOUNT}"
funding_instruments:
  main: { id: lygyi }
campaigns:
  one: { name: "Unreachable one", funding_instrument: main, daily_budget: "1.00", entity_status: PAUSED }
`;
  ws = createWorkspace(emulator.info, manifest);
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});

describe('an endpoint that cannot be reached', () => {
  it('whose name does not resolve is one line naming the host, at once', async () => {
    const started = Date.now();
    const run = await runAt('http://nonexistent.invalid', ['plan', '--no-color']);
    const seconds = (Date.now() - started) / 1000;
    expect(run.code, transcript(run)).toBe(1);
    expect(run.stderr, transcript(run)).not.toMatch(STACK_FRAME);
    const lines = run.stderr.trim().split('\n');
    expect(lines, transcript(run)).toHaveLength(1);
    expect(lines[0]).toMatch(/^Error: .*nonexistent\.invalid.*does not resolve/);
    expect(seconds, transcript(run)).toBeLessThan(15);
  });

  it('that refuses connections is given up within --connect-timeout, in one line naming it', async () => {
    const port = await closedPort();
    const started = Date.now();
    const run = await runAt(`http://127.0.0.1:${port}`, ['plan', '--no-color', '--connect-timeout', '2s']);
    const seconds = (Date.now() - started) / 1000;
    expect(run.code, transcript(run)).toBe(1);
    expect(run.stderr, transcript(run)).not.toMatch(STACK_FRAME);
    const lines = run.stderr.trim().split('\n');
    expect(lines, transcript(run)).toHaveLength(1);
    expect(lines[0]).toContain(`http://127.0.0.1:${port}`);
    expect(lines[0]).toMatch(/refused/);
    expect(lines[0]).toContain('--connect-timeout');
    expect(seconds, transcript(run)).toBeLessThan(2 + 8);
  });

  it('with --connect-timeout 0 is given up after one attempt', async () => {
    const port = await closedPort();
    const started = Date.now();
    const run = await runAt(`http://127.0.0.1:${port}`, ['plan', '--no-color', '--connect-timeout', '0s']);
    expect(run.code, transcript(run)).toBe(1);
    expect(run.stderr.trim().split('\n'), transcript(run)).toHaveLength(1);
    expect((Date.now() - started) / 1000, transcript(run)).toBeLessThan(8);
  });

  it('whose TLS certificate is self-signed is one line saying so and how to trust it, at once', async () => {
    const dir = fileURLToPath(new URL('../support/tls/', import.meta.url));
    const server = createHttpsServer({ key: readFileSync(join(dir, 'self-signed-key.pem')), cert: readFileSync(join(dir, 'self-signed-cert.pem')) }, (_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const run = await runAt(`https://127.0.0.1:${port}`, ['plan', '--no-color']);
      expect(run.code, transcript(run)).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines, transcript(run)).toHaveLength(1);
      expect(lines[0]).toContain(`https://127.0.0.1:${port}`);
      expect(lines[0]).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(lines[0]).toContain('NODE_EXTRA_CA_CERTS');
      expect(lines[0]).not.toContain('a bug in adsctl');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('spoken to in https on a plain http port is one line that suggests http://', async () => {
    const port = new URL(emulator.info.base_url).port;
    const run = await runAt(`https://127.0.0.1:${port}`, ['plan', '--no-color']);
    expect(run.code, transcript(run)).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines, transcript(run)).toHaveLength(1);
    expect(lines[0]).toContain(`https://127.0.0.1:${port}`);
    expect(lines[0]).toContain('is the endpoint http://, not https://?');
    expect(lines[0]).not.toContain('a bug in adsctl');
  });

  it('refuses a bad --connect-timeout in one line, before any request', async () => {
    const run = await ws.run(['plan', '--connect-timeout', 'soon']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n'), transcript(run)).toHaveLength(1);
    expect(run.stderr).toMatch(/--connect-timeout.*soon.*see adsctl plan --help/);
  });
});
