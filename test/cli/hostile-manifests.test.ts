/**
 * Issue 9, point 13, through the built CLI: hostile manifests (nested 800 levels, a 10 MB name,
 * bytes that are not UTF-8, an endpoint URL that does not parse) each get one short error at the
 * file, line and column, exit 1, and send nothing to the API. The inputs are made in a temporary
 * directory; the API is a server that only counts the requests it receives.
 */
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-hostile-'));
let server: Server;
let requests = 0;
let endpoint = '';

const ENV = { ADSCTL_CONSUMER_KEY: 'ck', ADSCTL_CONSUMER_SECRET: 'cs', ADSCTL_ACCESS_TOKEN: 'at', ADSCTL_ACCESS_TOKEN_SECRET: 'ats', NO_COLOR: '1' };

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** A workspace holding `account.yaml` with these bytes; `${endpoint}` is the counting server. */
function workspace(name: string, content: (endpoint: string) => string | Buffer): string {
  const ws = join(dir, name);
  mkdirSync(ws);
  writeFileSync(join(ws, 'account.yaml'), content(endpoint));
  return ws;
}

const head = (at: string): string => `version: 1\nendpoint: ${at}\naccount: { id: "18ce54d4x5t", name: Hostile }\n`;
const CASES: Array<[string, (at: string) => string | Buffer, RegExp]> = [
  ['nested 800 levels in flow style', (at) => `${head(at)}x-deep: ${'['.repeat(800)}${']'.repeat(800)}\n`, /^account\.yaml:4:72: error yaml-too-deep: /],
  ['nested 800 levels in block style', (at) => `${head(at)}x-deep:\n${Array.from({ length: 800 }, (_, i) => `${' '.repeat(i + 1)}k:\n`).join('')}`, /^account\.yaml:68:65: error yaml-too-deep: /],
  ['a 10 MB name', (at) => `version: 1\nendpoint: ${at}\naccount: { id: "18ce54d4x5t", name: "${'n'.repeat(10_000_000)}" }\n`, /^account\.yaml:3:37: error schema-max-length: name is 10000000 characters long/],
  ['a byte that is not UTF-8', (at) => Buffer.concat([Buffer.from(`${head(at)}campaigns:\n  c: { name: "Caf`), Buffer.from([0xe9]), Buffer.from('" }\n')]), /^account\.yaml:5:18: error invalid-utf8: .*byte 0xE9 at byte offset \d+/],
  ['an endpoint URL with an unclosed IPv6 bracket', () => head('"http://[::1"'), /^account\.yaml:2:11: error schema-pattern: endpoint "http:\/\/\[::1" is not valid/],
];

describe.each(CASES)('a manifest with %s', (name, content, error) => {
  let ws: string;
  beforeAll(() => {
    ws = workspace(name.replace(/\W+/g, '-'), content);
  });

  const check = (run: CliRun): void => {
    expect(run.code, run.stderr.slice(0, 2_000)).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.length).toBeLessThan(2_000);
    expect(run.stderr).toMatch(error);
    expect(run.stderr).not.toMatch(/call stack|\n\s+at /);
  };

  it('fails validate with one short error at its position', async () => {
    const run = await runCli(['validate', 'account.yaml'], { cwd: ws, env: ENV });
    check(run);
    expect(run.stderr.endsWith('\n1 error in 1 file.\n')).toBe(true);
  });

  it('fails plan the same way, before any request', async () => {
    const before = requests;
    check(await runCli(['plan', 'account.yaml', '--no-color'], { cwd: ws, env: ENV }));
    expect(requests).toBe(before);
  });
});
