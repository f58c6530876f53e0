/**
 * Errors of the run's own settings name the setting. An endpoint that is an HTTP server but not
 * the advertising API (here a node:http server answering 404 text/html) is one line naming its
 * host and the setting that chose it — ADSCTL_ENDPOINT or `endpoint:` in the manifest — exit 1,
 * instead of `404 404: HTTP 404`. A wrong secret's 401 names where the credentials came from —
 * the environment variables, or the file `adsctl auth login` wrote, with its path — and points at
 * `adsctl auth whoami`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';
import { runCli } from '../support/run-cli.js';

const CAMPAIGNS = `campaigns:
  one: { name: One, funding_instrument: main, daily_budget: "1.00", entity_status: PAUSED }
`;

let emulator: RunningEmulator;
let web: Server;
let webUrl: string;
let ws: Workspace;

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  web = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const address = web.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  webUrl = `http://127.0.0.1:${address.port}`;
  ws = createWorkspace(emulator.info, `${seededAccountHead(emulator.info.base_url)}${CAMPAIGNS}`);
});
afterAll(async () => {
  ws.remove();
  await new Promise<void>((resolve) => web.close(() => resolve()));
  await emulator.close();
});

/** The one line of stderr of a failed run, after checking it failed with exit 1 and printed nothing else. */
function oneLine(run: { code: number | null; stdout: string; stderr: string }): string {
  expect(run.code, transcript(run)).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines, transcript(run)).toHaveLength(1);
  return lines[0]!;
}

describe('an endpoint that is a web server, not the API', () => {
  it('set by ADSCTL_ENDPOINT: one line naming the host and ADSCTL_ENDPOINT', async () => {
    const run = await runCli(['plan'], { env: { ...ws.env, ADSCTL_ENDPOINT: webUrl }, cwd: ws.dir });
    const line = oneLine(run);
    expect(line).toMatch(/^Error: GET \/12\/\S+: /);
    expect(line).toContain(`${webUrl} answered 404 with an HTML page, so it is not the API; check ADSCTL_ENDPOINT`);
    expect(line).not.toContain('404 404');
  });

  it("set by the manifest's endpoint: one line naming the host and `endpoint:` in the manifest", async () => {
    ws.write(`${seededAccountHead(webUrl)}${CAMPAIGNS}`);
    try {
      const line = oneLine(await ws.run(['plan']));
      expect(line).toContain(`${webUrl} answered 404 with an HTML page, so it is not the API; check \`endpoint:\` in the manifest`);
    } finally {
      ws.write(`${seededAccountHead(emulator.info.base_url)}${CAMPAIGNS}`);
    }
  });

  it('given to a command by --endpoint: names --endpoint', async () => {
    const line = oneLine(await ws.run(['auth', 'whoami', '--endpoint', webUrl]));
    expect(line).toContain(`${webUrl} answered 404 with an HTML page, so it is not the API; check --endpoint`);
  });
});

describe('a 401 of a wrong secret', () => {
  it('from the environment names the variables and adsctl auth whoami', async () => {
    const line = oneLine(await runCli(['plan'], { env: { ...ws.env, ADSCTL_ACCESS_TOKEN_SECRET: 'not-the-secret' }, cwd: ws.dir }));
    expect(line).toMatch(/^Error: GET \/12\/\S+: 401 UNAUTHORIZED_ACCESS: /);
    expect(line).toContain('the credentials came from the environment (ADSCTL_CONSUMER_KEY, ADSCTL_CONSUMER_SECRET, ADSCTL_ACCESS_TOKEN, ADSCTL_ACCESS_TOKEN_SECRET): check them with adsctl auth whoami');
    expect(line).not.toContain('not-the-secret');
  });

  it('from the file adsctl auth login wrote names the file, its profile and adsctl auth whoami', async () => {
    const config = join(ws.dir, 'login-config');
    mkdirSync(join(config, 'adsctl'), { recursive: true });
    const file = join(config, 'adsctl', 'credentials.json');
    const profile = {
      consumer_key: emulator.info.consumer_key,
      consumer_secret: emulator.info.consumer_secret,
      access_token: emulator.info.access_token,
      access_token_secret: 'not-the-secret',
    };
    writeFileSync(file, JSON.stringify({ profiles: { [emulator.info.base_url]: profile } }), { mode: 0o600 });
    const { ADSCTL_CONSUMER_KEY: _k, ADSCTL_CONSUMER_SECRET: _s, ADSCTL_ACCESS_TOKEN: _t, ADSCTL_ACCESS_TOKEN_SECRET: _ts, ...rest } = ws.env;
    const line = oneLine(await runCli(['plan'], { env: { ...rest, XDG_CONFIG_HOME: config }, cwd: ws.dir }));
    expect(line).toContain(`401 UNAUTHORIZED_ACCESS: `);
    expect(line).toContain(`the credentials came from ${file} (profile ${JSON.stringify(emulator.info.base_url)}, written by adsctl auth login): check them with adsctl auth whoami`);
    expect(line).not.toContain('not-the-secret');
  });
});
