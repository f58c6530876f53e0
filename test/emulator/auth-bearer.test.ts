import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type Reply, type TestClient } from '../support/client.js';
import { loginAs } from '../support/login.js';
import { rfc3986 } from '../support/signer.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
});
afterAll(() => emulator.close());

/** `Authorization: Basic` over the RFC 6749 form-encoded key and secret. */
const basic = (key: string, secret: string): string => `Basic ${Buffer.from(`${rfc3986(key)}:${rfc3986(secret)}`).toString('base64')}`;

function requestBearer(c: TestClient, params: Record<string, string> = { grant_type: 'client_credentials' }, authorization?: string): Promise<Reply> {
  return c.post('/oauth2/token', params, {
    as: 'form',
    base: 'root',
    creds: null,
    headers: { authorization: authorization ?? basic(c.info.consumer_key, c.info.consumer_secret) },
  });
}

const invalidate = (c: TestClient, token: string): Promise<Reply> => c.post('/oauth2/invalidate_token', { access_token: token }, { as: 'form', base: 'root' });

describe('POST /oauth2/token', () => {
  it('issues one bearer token per application and returns it again until it is invalidated', async () => {
    const first = await requestBearer(client);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(first.body)).toEqual(['token_type', 'access_token']);
    expect(first.body.token_type).toBe('bearer');
    expect(first.body.access_token).toMatch(/^A{21}[A-Za-z0-9%]+%3D[A-Za-z0-9]+$/);
    const second = await requestBearer(client);
    expect(second.body.access_token).toBe(first.body.access_token);

    const bearer = first.body.access_token as string;
    const lookup = await client.get('/12/iab_categories', { count: 1 }, { bearer });
    expect(lookup.status).toBe(200);
    expect(lookup.body.data).toHaveLength(1);
    for (const path of [`/12/accounts/${account}`, `/12/accounts/${account}/curated_categories`, '/12/accounts']) {
      const refused = await client.get(path, {}, { bearer });
      expect(refused.status).toBe(401);
      expect(refused.body.errors[0].code).toBe('UNAUTHORIZED_ACCESS');
    }

    const revoked = await invalidate(client, bearer);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ access_token: bearer });
    const after = await client.get('/12/iab_categories', { count: 1 }, { bearer });
    expect(after.status).toBe(401);
    expect(after.body.errors).toEqual([{ code: 89, message: 'Invalid or expired token.' }]);

    const fresh = await requestBearer(client);
    expect(fresh.status).toBe(200);
    expect(fresh.body.access_token).not.toBe(bearer);
    expect((await client.get('/12/iab_categories', { count: 1 }, { bearer: fresh.body.access_token })).status).toBe(200);
  });

  it('decodes the form-encoded client credentials of the Basic header', async () => {
    const key = client.info.consumer_key;
    const encoded = `Basic ${Buffer.from(`%${key.charCodeAt(0).toString(16)}${key.slice(1)}:${client.info.consumer_secret}`).toString('base64')}`;
    expect((await requestBearer(client, undefined, encoded)).status).toBe(200);
  });

  const failures: Array<{ rule: string; params?: Record<string, string>; authorization?: string; json?: boolean; status: number; code: number }> = [
    { rule: 'no Authorization header', authorization: '', status: 403, code: 99 },
    { rule: 'OAuth instead of Basic', authorization: 'OAuth oauth_consumer_key="x"', status: 403, code: 99 },
    { rule: 'wrong consumer secret', authorization: basic('xvz1evFS4wEEPTGEFPHBogEmu', 'wrong'), status: 403, code: 99 },
    { rule: 'unknown consumer key', authorization: basic('unknown', 'secret'), status: 403, code: 99 },
    { rule: 'no grant_type', params: {}, status: 403, code: 170 },
    { rule: 'grant_type other than client_credentials', params: { grant_type: 'password' }, status: 400, code: 44 },
    { rule: 'JSON body instead of a form', json: true, status: 400, code: 44 },
  ];
  it.each(failures)('$rule → $status code $code', async ({ params, authorization, json, status, code }) => {
    const r =
      json === true
        ? await client.post('/oauth2/token', {}, { base: 'root', creds: null, json: { grant_type: 'client_credentials' }, headers: { authorization: basic(client.info.consumer_key, client.info.consumer_secret) } })
        : await requestBearer(client, params, authorization);
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ errors: [{ code, message: expect.any(String) }] });
  });
});

describe('POST /oauth2/invalidate_token', () => {
  it('requires the application owner', async () => {
    const { body } = await requestBearer(client);
    const manager = client.as(await loginAs(client, 'adsctl_manager'));
    const r = await invalidate(manager, body.access_token);
    expect(r.status).toBe(403);
    expect(r.body.errors[0].code).toBe(220);
    expect((await client.get('/12/iab_categories', {}, { bearer: body.access_token })).status).toBe(200);
  });

  it('accepts the token percent-decoded as well as encoded', async () => {
    const { body } = await requestBearer(client);
    const r = await invalidate(client, decodeURIComponent(body.access_token));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ access_token: body.access_token });
  });

  const failures: Array<{ rule: string; params: Record<string, string>; status: number; code: number }> = [
    { rule: 'no access_token', params: {}, status: 403, code: 38 },
    { rule: 'unknown bearer token', params: { access_token: 'AAAAnotAToken' }, status: 401, code: 89 },
  ];
  it.each(failures)('$rule → $status code $code', async ({ params, status, code }) => {
    const r = await client.post('/oauth2/invalidate_token', params, { as: 'form', base: 'root' });
    expect(r.status).toBe(status);
    expect(r.body.errors[0].code).toBe(code);
  });

  it('refuses an already invalidated token with code 89', async () => {
    const { body } = await requestBearer(client);
    expect((await invalidate(client, body.access_token)).status).toBe(200);
    const again = await invalidate(client, body.access_token);
    expect(again.status).toBe(401);
    expect(again.body.errors[0].code).toBe(89);
  });

  it('refuses a request without a valid OAuth 1.0a signature', async () => {
    const { body } = await requestBearer(client);
    const r = await client.post('/oauth2/invalidate_token', { access_token: body.access_token }, { as: 'form', base: 'root', creds: { ...client.creds, tokenSecret: 'wrong' } });
    expect(r.status).toBe(401);
    expect(r.body.errors[0].code).toBe(32);
  });
});

describe('bearer tokens requested too often', () => {
  let limited: Awaited<ReturnType<typeof startTestEmulator>>;
  beforeAll(async () => {
    limited = await startTestEmulator({ rateLimitScale: 0.01 });
  });
  afterAll(() => limited.emulator.close());

  it('answers 403 code 99 past the token endpoint limit (300 per 15 minutes, scaled to 3 here)', async () => {
    const replies: Reply[] = [];
    for (let i = 0; i < 4; i++) replies.push(await requestBearer(limited.client));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 403]);
    expect(new Set(replies.slice(0, 3).map((r) => r.body.access_token)).size).toBe(1);
    expect(replies.map((r) => r.headers['x-rate-limit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(replies[3]!.body).toEqual({ errors: [{ code: 99, message: 'Unable to verify your credentials' }] });
  });
});
