import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Reply, type SendOptions, type TestClient } from '../support/client.js';
import { consumerOf } from '../support/login.js';
import { authorizationHeader, type Credentials } from '../support/signer.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
});
afterAll(() => emulator.close());

const nowS = (): number => Math.floor(testNow() / 1000);

/** How a request is spoiled, as options for the client (given the client's own credentials). */
interface Spoil {
  rule: string;
  opts: (creds: Credentials) => SendOptions;
  /** Expected on the token endpoints (integer codes). */
  token: { status: number; code: number };
}

const SPOILS: Spoil[] = [
  { rule: 'no Authorization header', opts: () => ({ creds: null }), token: { status: 400, code: 215 } },
  { rule: 'bad signature (wrong consumer secret)', opts: (c) => ({ creds: { ...c, consumerSecret: 'wrong' } }), token: { status: 401, code: 32 } },
  { rule: 'unknown consumer key', opts: (c) => ({ creds: { ...c, consumerKey: 'unknownConsumerKey' } }), token: { status: 401, code: 32 } },
  { rule: 'timestamp an hour old', opts: () => ({ timestamp: nowS() - 3600 }), token: { status: 401, code: 135 } },
  { rule: 'timestamp an hour ahead', opts: () => ({ timestamp: nowS() + 3600 }), token: { status: 401, code: 135 } },
  { rule: 'non-ASCII nonce', opts: () => ({ nonce: 'nönce-ü' }), token: { status: 400, code: 215 } },
  { rule: 'unsupported signature method', opts: (c) => ({ headers: { authorization: authorizationHeader(c, { method: 'POST', url: 'http://x/' }).replace('HMAC-SHA1', 'PLAINTEXT') } }), token: { status: 401, code: 32 } },
];

describe('authentication failures on the token endpoints (integer codes)', () => {
  it.each(SPOILS)('request_token with $rule → $token.status code $token.code', async ({ opts, token }) => {
    const r = await client.post('/oauth/request_token', {}, { base: 'root', oauth: { oauth_callback: 'oob' }, creds: consumerOf(client), ...opts(consumerOf(client)) });
    expect(r.status).toBe(token.status);
    expect(r.body).toEqual({ errors: [{ code: token.code, message: expect.any(String) }] });
  });

  it.each(SPOILS)('invalidate_token with $rule → $token.status code $token.code', async ({ opts, token }) => {
    const r = await client.post('/1.1/oauth/invalidate_token', {}, { base: 'root', ...opts(client.creds) });
    expect(r.status).toBe(token.status);
    expect(r.body.errors[0].code).toBe(token.code);
  });

  it('refuses an unknown token with code 89', async () => {
    const r = await client.post('/1.1/oauth/invalidate_token', {}, { base: 'root', creds: { ...client.creds, token: 'unknown-token' } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ errors: [{ code: 89, message: 'Invalid or expired token.' }] });
  });

  it('refuses a token on request_token (consumer keys only) with code 89', async () => {
    const r = await client.post('/oauth/request_token', {}, { base: 'root', oauth: { oauth_callback: 'oob' } });
    expect(r.status).toBe(401);
    expect(r.body.errors[0].code).toBe(89);
  });

  it('refuses a replayed nonce with code 32', async () => {
    const opts: SendOptions = { base: 'root', creds: consumerOf(client), oauth: { oauth_callback: 'oob' }, nonce: 'replayed-token-nonce-1' };
    expect((await client.post('/oauth/request_token', {}, opts)).status).toBe(200);
    const replay = await client.post('/oauth/request_token', {}, opts);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ errors: [{ code: 32, message: 'Could not authenticate you.' }] });
  });

  it('accepts a correct oauth_body_hash on a JSON POST and refuses a wrong one', async () => {
    const ok = await client.post('/oauth/request_token', {}, { base: 'root', creds: consumerOf(client), oauth: { oauth_callback: 'oob' }, json: { any: 'body' }, bodyHash: true });
    expect(ok.status).toBe(200);
    const url = client.url('/oauth/request_token', 'root');
    const authorization = authorizationHeader(consumerOf(client), { method: 'POST', url, extraOAuth: { oauth_callback: 'oob' }, bodyForHash: Buffer.from('{"other":"body"}') });
    const bad = await client.post('/oauth/request_token', {}, { base: 'root', json: { any: 'body' }, headers: { authorization } });
    expect(bad.status).toBe(401);
    expect(bad.body.errors[0].code).toBe(32);
  });

  it.each([
    ['GET', '/oauth/request_token'],
    ['POST', '/oauth/nothing'],
    ['GET', '/oauth2/token'],
    ['GET', '/'],
  ])('%s %s → 404 code 34', async (method, path) => {
    const r = await client.send(method, path, {}, { base: 'root' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ errors: [{ code: 34, message: 'Sorry, that page does not exist.' }] });
  });
});

describe('authentication failures on the advertising endpoints (UNAUTHORIZED_ACCESS)', () => {
  const UNAUTHORIZED = { errors: [{ code: 'UNAUTHORIZED_ACCESS', message: 'This request is not properly authenticated' }], request: { params: {} } };
  const cases: Array<{ rule: string; opts: (c: Credentials) => SendOptions }> = [
    ...SPOILS.map(({ rule, opts }) => ({ rule, opts })),
    { rule: 'unknown access token', opts: (c: Credentials) => ({ creds: { ...c, token: 'unknown-token' } }) },
    { rule: 'wrong token secret', opts: (c: Credentials) => ({ creds: { ...c, tokenSecret: 'wrong' } }) },
    { rule: 'consumer keys only', opts: () => ({ creds: consumerOf(client) }) },
  ];
  it.each(cases)('GET accounts with $rule → 401', async ({ opts }) => {
    const r = await client.get(`/12/accounts/${account}`, {}, opts(client.creds));
    expect(r.status).toBe(401);
    expect(r.body).toEqual(UNAUTHORIZED);
  });

  it('refuses a replayed nonce', async () => {
    const opts: SendOptions = { nonce: 'replayed-ads-nonce-1' };
    expect((await client.get(`/12/accounts/${account}`, {}, opts)).status).toBe(200);
    const replay = await client.get(`/12/accounts/${account}`, {}, opts);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual(UNAUTHORIZED);
  });

  it('accepts a correct oauth_body_hash on a JSON POST and refuses a wrong one', async () => {
    const path = `/12/accounts/${account}/audience_estimate`;
    const json = { targeting_criteria: [{ targeting_type: 'BROAD_KEYWORD', targeting_value: 'hiking' }] };
    const ok = await client.post(path, {}, { json, bodyHash: true });
    expect(ok.status).not.toBe(401);
    expect(JSON.stringify(ok.body)).not.toContain('UNAUTHORIZED_ACCESS');
    const authorization = authorizationHeader(client.creds, { method: 'POST', url: client.url(path), bodyForHash: Buffer.from('{}') });
    const bad = await client.post(path, {}, { json, headers: { authorization } });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual(UNAUTHORIZED);
  });
});

describe('signatures over reserved characters', () => {
  const VALUES = ['card://1321554298900107264', 'a,b,c', '2026-11-21T23:24:48Z', 'a+b c', 'Zürich 東京 🚀', "!*'();:@&=+$,/?#[]%"];
  it.each(VALUES)('query value %j is signed and verified', async (value) => {
    const r: Reply = await client.get('/12/accounts', { q: value });
    expect(r.status).toBe(200);
    expect(r.body.request.params.q).toBe(value);
  });

  it.each(VALUES)('form value %j is signed and verified', async (value) => {
    const r = await client.put(`/12/accounts/${account}`, { name: value }, { as: 'form' });
    expect(r.status).toBe(200);
    expect(r.body.data.name).toBe(value);
  });
});

describe('token endpoint rate limits', () => {
  let limited: Awaited<ReturnType<typeof startTestEmulator>>;
  beforeAll(async () => {
    limited = await startTestEmulator({ rateLimitScale: 0.01 });
  });
  afterAll(() => limited.emulator.close());

  it('charges each application per endpoint and answers 429 code 88 past the limit', async () => {
    const c = limited.client;
    const send = (): Promise<Reply> => c.post('/oauth/request_token', {}, { base: 'root', creds: consumerOf(c), oauth: { oauth_callback: 'oob' } });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await send();
      expect(r.status).toBe(200);
      expect(r.headers['x-rate-limit-limit']).toBe('3');
      remaining.push(r.headers['x-rate-limit-remaining']!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const over = await send();
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ errors: [{ code: 88, message: 'Rate limit exceeded.' }] });
    expect(over.headers['x-rate-limit-remaining']).toBe('0');
    expect(Number(over.headers['x-rate-limit-reset'])).toBeGreaterThan(nowS());

    const otherEndpoint = await c.post('/1.1/oauth/invalidate_token', {}, { base: 'root', creds: { ...c.creds, token: 'unknown-token' } });
    expect(otherEndpoint.status).toBe(401);
    expect(otherEndpoint.headers['x-rate-limit-remaining']).toBe('2');
  });
});
