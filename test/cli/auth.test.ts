import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { pinOf, submitApproval } from '../support/login.js';
import { runCli } from '../support/run-cli.js';

let emulator: RunningEmulator;
let client: TestClient;
let config: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  config = mkdtempSync(join(tmpdir(), 'adsctl-auth-'));
  env = {
    XDG_CONFIG_HOME: config,
    ADSCTL_ENDPOINT: emulator.info.base_url,
    ADSCTL_CONSUMER_KEY: emulator.info.consumer_key,
    ADSCTL_CONSUMER_SECRET: emulator.info.consumer_secret,
  };
});
afterAll(async () => {
  await emulator.close();
  rmSync(config, { recursive: true, force: true });
});

/** Plays the user: opens the authorize URL the CLI printed, approves as `screenName`, returns the PIN. */
function approveAs(screenName: string) {
  return async (stderr: string): Promise<string> => {
    const url = /(http:\/\/\S+\/oauth\/authorize\?oauth_token=\S+)/.exec(stderr)?.[1];
    if (url === undefined) throw new Error(`no authorize URL in: ${stderr}`);
    const token = decodeURIComponent(new URL(url).searchParams.get('oauth_token') ?? '');
    const page = await client.get('/oauth/authorize', { oauth_token: token }, { base: 'root', creds: null });
    expect(page.status).toBe(200);
    const pin = pinOf((await submitApproval(client, token, screenName)).text);
    if (pin === undefined) throw new Error('no PIN on the approval page');
    return `${pin}\n`;
  };
}

describe('adsctl auth', () => {
  it('login runs the PIN flow and stores the credentials with mode 0600; whoami uses them', async () => {
    const login = await runCli(['auth', 'login'], { env, input: approveAs('adsctl_analyst'), waitFor: /PIN: $/ });
    expect(login.stderr).toContain('Logged in as @adsctl_analyst');
    expect(login.code).toBe(0);
    const file = join(config, 'adsctl', 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')).profiles[emulator.info.base_url];
    expect(stored.user_id).toBe('756201191646691331');
    expect(login.stdout).toBe('');

    const who = await runCli(['auth', 'whoami'], { env });
    expect(who.code).toBe(0);
    expect(who.stdout).toContain('user 756201191646691331');
    expect(who.stdout).toMatch(new RegExp(`${emulator.info.account_id}\\s+.+CAMPAIGN_ANALYST`));
  });

  it('login --print prints environment exports; revoke of that token makes it fail with code 89', async () => {
    const run = await runCli(['auth', 'login', '--print'], { env, input: approveAs('adsctl_manager'), waitFor: /PIN: $/ });
    expect(run.code).toBe(0);
    const token = /^export ADSCTL_ACCESS_TOKEN='([^']+)'$/m.exec(run.stdout)?.[1];
    const secret = /^export ADSCTL_ACCESS_TOKEN_SECRET='([^']+)'$/m.exec(run.stdout)?.[1];
    expect(token).toBeDefined();
    const withToken = { ...env, ADSCTL_ACCESS_TOKEN: token, ADSCTL_ACCESS_TOKEN_SECRET: secret };
    const who = await runCli(['auth', 'whoami'], { env: withToken });
    expect(who.stdout).toMatch(/AD_MANAGER/);
    expect((await runCli(['auth', 'revoke'], { env: withToken })).code).toBe(0);
    const after = await runCli(['auth', 'whoami'], { env: withToken });
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/401 89: Invalid or expired token/);
  });

  it('login without a PIN exits 1', async () => {
    const run = await runCli(['auth', 'login'], { env, input: '\n', waitFor: /PIN: $/ });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no PIN');
  });

  it('bearer stores the application token; revoke --bearer invalidates it', async () => {
    const bearer = await runCli(['auth', 'bearer'], { env });
    expect(bearer.code).toBe(0);
    const token = JSON.parse(readFileSync(join(config, 'adsctl', 'credentials.json'), 'utf8')).profiles[emulator.info.base_url].bearer_token as string;
    expect(token.length).toBeGreaterThan(10);
    expect((await client.get('/12/bidding_rules', {}, { bearer: token })).status).toBe(200);
    const revoke = await runCli(['auth', 'revoke', '--bearer'], {
      env: { ...env, ADSCTL_ACCESS_TOKEN: emulator.info.access_token, ADSCTL_ACCESS_TOKEN_SECRET: emulator.info.access_token_secret },
    });
    expect(revoke.code).toBe(0);
    const after = await client.get('/12/bidding_rules', {}, { bearer: token });
    expect(after.status).toBe(401);
    expect(after.body.errors[0].code).toBe(89);
  });

  it('revoke invalidates the stored access token and removes it from the file', async () => {
    const stored = JSON.parse(readFileSync(join(config, 'adsctl', 'credentials.json'), 'utf8')).profiles[emulator.info.base_url];
    const revoke = await runCli(['auth', 'revoke'], { env });
    expect(revoke.code).toBe(0);
    const who = await runCli(['auth', 'whoami'], { env });
    expect(who.code).toBe(1);
    expect(who.stderr).toContain('no credentials');
    const revoked = await client.get('/12/accounts', {}, { creds: { ...client.creds, token: stored.access_token, tokenSecret: stored.access_token_secret } });
    expect(revoked.status).toBe(401);
    expect(revoked.body.errors[0].code).toBe(89);
  });

  it('whoami with unknown credentials reports the 401 and exits 1; --debug redacts the trace', async () => {
    const creds = { ADSCTL_ACCESS_TOKEN: 'not-a-token', ADSCTL_ACCESS_TOKEN_SECRET: 'nope' };
    const who = await runCli(['auth', 'whoami', '--debug'], { env: { ...env, ...creds } });
    expect(who.code).toBe(1);
    expect(who.stderr).toContain('401');
    expect(who.stderr).toContain('Authorization: OAuth');
    expect(who.stderr).not.toContain(emulator.info.consumer_secret);
    expect(who.stderr).not.toContain('not-a-token');
  });
});
