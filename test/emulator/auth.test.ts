import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { SEED_APP_WITHOUT_SIGN_IN } from '../../src/emulator/store/seed.js';
import { consumerOf, fetchRequestToken, loginAs, parsePairs, pinOf, submitApproval } from '../support/login.js';
import type { Credentials } from '../support/signer.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;
beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
});
afterAll(() => emulator.close());

const ANALYST_ID = '756201191646691331';
const CALLBACK = 'http://127.0.0.1/callback';

/** A request token approved by `screenName`, with the verifier it got. */
async function approvedToken(callback: string, screenName = 'adsctl_manager'): Promise<{ token: string; secret: string; verifier: string }> {
  const { token, secret } = await fetchRequestToken(client, callback);
  const approved = await submitApproval(client, token, screenName);
  const verifier = callback === 'oob' ? pinOf(approved.text) : new URL(approved.headers['location'] ?? '').searchParams.get('oauth_verifier');
  return { token, secret, verifier: verifier ?? '' };
}

const signedWith = (token: string, secret: string): Credentials => ({ ...consumerOf(client), token, tokenSecret: secret });

describe('three-legged flow in PIN mode', () => {
  it('logs in a non-owner user and acts with their permissions', async () => {
    const step1 = await fetchRequestToken(client, 'oob');
    expect(step1.reply.status).toBe(200);
    expect(step1.reply.headers['content-type']).toMatch(/^text\/html/);
    expect(Object.keys(step1.pairs)).toEqual(['oauth_token', 'oauth_token_secret', 'oauth_callback_confirmed']);
    expect(step1.pairs['oauth_callback_confirmed']).toBe('true');

    const page = await client.get('/oauth/authorize', { oauth_token: step1.token, screen_name: 'adsctl_analyst' }, { base: 'root', creds: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<span id="oauth_app_name">adsctl emulator app</span>');
    expect(page.text).toContain(`name="oauth_token" value="${step1.token}"`);
    expect(page.text).toContain('name="screen_name" id="screen_name" value="adsctl_analyst"');

    const approved = await submitApproval(client, step1.token, 'adsctl_analyst');
    expect(approved.status).toBe(200);
    const pin = pinOf(approved.text);
    expect(pin).toMatch(/^\d{7}$/);

    const step3 = await client.post('/oauth/access_token', {}, { base: 'root', creds: signedWith(step1.token, step1.secret), oauth: { oauth_verifier: pin! } });
    expect(step3.status).toBe(200);
    const access = parsePairs(step3.text);
    expect(Object.keys(access)).toEqual(['oauth_token', 'oauth_token_secret', 'user_id', 'screen_name']);
    expect(access).toMatchObject({ user_id: ANALYST_ID, screen_name: 'adsctl_analyst' });
    expect(access['oauth_token']).toMatch(new RegExp(`^${ANALYST_ID}-`));

    const analyst = client.as(signedWith(access['oauth_token']!, access['oauth_token_secret']!));
    const read = await analyst.get(`/12/accounts/${account}`);
    expect(read.status).toBe(200);
    expect(read.body.data.id).toBe(account);
    const write = await analyst.put(`/12/accounts/${account}`, { name: 'renamed by analyst' });
    expect(write.status).toBe(403);
    expect(write.body.errors[0].code).toBe('ACTION_NOT_ALLOWED');
  });

  it('accepts the verifier as a form parameter instead of in the header', async () => {
    const { token, secret, verifier } = await approvedToken('oob');
    const r = await client.post('/oauth/access_token', { oauth_verifier: verifier }, { as: 'form', base: 'root', creds: signedWith(token, secret) });
    expect(r.status).toBe(200);
    expect(parsePairs(r.text)['screen_name']).toBe('adsctl_manager');
  });

  it('creates a new access token on every login, each usable on its own', async () => {
    const first = await loginAs(client, 'adsctl_creative');
    const second = await loginAs(client, 'adsctl_creative');
    expect(second.token).not.toBe(first.token);
    expect(second.tokenSecret).not.toBe(first.tokenSecret);
    for (const creds of [first, second]) expect((await client.as(creds).get(`/12/accounts/${account}`)).status).toBe(200);
  });

  it('shows a denial page and kills the request token when the user cancels', async () => {
    const { token, secret } = await fetchRequestToken(client, 'oob');
    const denied = await submitApproval(client, token, 'adsctl_manager', 'deny');
    expect(denied.status).toBe(200);
    expect(pinOf(denied.text)).toBeUndefined();
    const r = await client.post('/oauth/access_token', {}, { base: 'root', creds: signedWith(token, secret), oauth: { oauth_verifier: '1234567' } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ errors: [{ code: 89, message: 'Invalid or expired token.' }] });
  });
});

describe('three-legged flow with a callback', () => {
  it('redirects to the registered callback with oauth_token and oauth_verifier, keeping its query', async () => {
    const { token, secret } = await fetchRequestToken(client, `${CALLBACK}?state=a%2Cb`);
    const approved = await submitApproval(client, token, 'adsctl_manager');
    expect(approved.status).toBe(302);
    const location = new URL(approved.headers['location']!);
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get('state')).toBe('a,b');
    expect(location.searchParams.get('oauth_token')).toBe(token);
    const verifier = location.searchParams.get('oauth_verifier')!;
    const r = await client.post('/oauth/access_token', {}, { base: 'root', creds: signedWith(token, secret), oauth: { oauth_verifier: verifier } });
    expect(r.status).toBe(200);
    expect(parsePairs(r.text)['screen_name']).toBe('adsctl_manager');
  });

  it('redirects with denied=<token> when the user cancels', async () => {
    const { token } = await fetchRequestToken(client, CALLBACK);
    const denied = await submitApproval(client, token, 'adsctl_manager', 'deny');
    expect(denied.status).toBe(302);
    expect(denied.headers['location']).toBe(`${CALLBACK}?denied=${token}`);
  });

  it('/oauth/authenticate skips the form for a logged-in user who already granted the app, unless force_login', async () => {
    const first = await fetchRequestToken(client, CALLBACK);
    const approved = await submitApproval(client, first.token, 'adsctl_creative');
    const cookie = String(approved.headers['set-cookie']).split(';')[0]!;

    const fresh = await fetchRequestToken(client, CALLBACK);
    const forced = await client.get('/oauth/authenticate', { oauth_token: fresh.token, force_login: 'true' }, { base: 'root', creds: null, headers: { cookie } });
    expect(forced.status).toBe(200);
    expect(forced.text).toContain('id="oauth_form"');
    const anonymous = await client.get('/oauth/authenticate', { oauth_token: fresh.token }, { base: 'root', creds: null });
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).toContain('id="oauth_form"');

    const direct = await client.get('/oauth/authenticate', { oauth_token: fresh.token }, { base: 'root', creds: null, headers: { cookie } });
    expect(direct.status).toBe(302);
    const verifier = new URL(direct.headers['location']!).searchParams.get('oauth_verifier')!;
    const r = await client.post('/oauth/access_token', {}, { base: 'root', creds: signedWith(fresh.token, fresh.secret), oauth: { oauth_verifier: verifier } });
    expect(parsePairs(r.text)['screen_name']).toBe('adsctl_creative');
  });

  it('/oauth/authenticate refuses an application without the sign-in setting', async () => {
    const other = client.as({ consumerKey: SEED_APP_WITHOUT_SIGN_IN.consumer_key, consumerSecret: SEED_APP_WITHOUT_SIGN_IN.consumer_secret });
    const { token } = await fetchRequestToken(other, 'http://127.0.0.1/callback');
    const r = await client.get('/oauth/authenticate', { oauth_token: token }, { base: 'root', creds: null });
    expect(r.status).toBe(403);
    const authorize = await client.get('/oauth/authorize', { oauth_token: token }, { base: 'root', creds: null });
    expect(authorize.status).toBe(200);
  });
});

describe('POST /oauth/request_token rules', () => {
  const cases: Array<{ rule: string; callback?: string; params?: Record<string, string>; as?: 'query' | 'form'; status: number; code?: number }> = [
    { rule: 'oob in the header', callback: 'oob', status: 200 },
    { rule: 'registered URL in the header', callback: 'http://localhost/callback', status: 200 },
    { rule: 'registered URL with an extra query string', callback: `${CALLBACK}?next=/a/b&x=1`, status: 200 },
    { rule: 'callback as a query parameter', params: { oauth_callback: 'oob' }, status: 200 },
    { rule: 'callback as a form parameter with reserved characters', params: { oauth_callback: `${CALLBACK}?card=card://1,2:3+ü` }, as: 'form', status: 200 },
    { rule: 'missing callback', status: 403, code: 38 },
    { rule: 'empty callback', callback: '', status: 403, code: 38 },
    { rule: 'unregistered callback', callback: 'https://attacker.example/callback', status: 403, code: 415 },
    { rule: 'registered host with another path', callback: 'http://127.0.0.1/other', status: 403, code: 415 },
    { rule: 'x_auth_access_type read', callback: 'oob', params: { x_auth_access_type: 'read' }, status: 200 },
    { rule: 'x_auth_access_type write', callback: 'oob', params: { x_auth_access_type: 'write' }, status: 200 },
    { rule: 'x_auth_access_type other', callback: 'oob', params: { x_auth_access_type: 'admin' }, status: 400, code: 44 },
  ];
  it.each(cases)('$rule → $status', async ({ callback, params, as, status, code }) => {
    const r = await client.post('/oauth/request_token', params ?? {}, {
      base: 'root',
      creds: consumerOf(client),
      ...(as === undefined ? {} : { as }),
      ...(callback === undefined ? {} : { oauth: { oauth_callback: callback } }),
    });
    expect(r.status).toBe(status);
    if (code === undefined) expect(parsePairs(r.text)['oauth_callback_confirmed']).toBe('true');
    else expect(r.body.errors[0].code).toBe(code);
  });

  it('gives a read-only token with x_auth_access_type=read: reads work, writes are refused', async () => {
    const readOnly = client.as(await loginAs(client, 'adsctl_manager', { accessType: 'read' }));
    expect((await readOnly.get(`/12/accounts/${account}`)).status).toBe(200);
    for (const r of [
      await readOnly.put(`/12/accounts/${account}`, { name: 'read-only rename' }),
      await readOnly.post(`/12/accounts/${account}/campaigns`, { name: 'x', funding_instrument_id: 'lygyi' }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.errors[0].code).toBe('READONLY_CLIENT_APPLICATION');
    }
    const estimate = await readOnly.post(`/12/accounts/${account}/audience_estimate`, {}, { json: { targeting_criteria: [{ targeting_type: 'BROAD_KEYWORD', targeting_value: 'tents' }] } });
    expect(estimate.status).toBe(200);
  });
});

describe('POST /oauth/access_token rules', () => {
  const cases: Array<{ rule: string; setup: 'approved' | 'pending'; verifier: 'right' | 'wrong' | 'none'; status: number; code: number }> = [
    { rule: 'no oauth_verifier', setup: 'approved', verifier: 'none', status: 403, code: 38 },
    { rule: 'wrong oauth_verifier', setup: 'approved', verifier: 'wrong', status: 401, code: 32 },
    { rule: 'request token not yet approved', setup: 'pending', verifier: 'wrong', status: 401, code: 32 },
  ];
  it.each(cases)('$rule → $status code $code', async ({ setup, verifier, status, code }) => {
    const t = setup === 'approved' ? await approvedToken('oob') : { ...(await fetchRequestToken(client, 'oob')), verifier: '' };
    const sent = verifier === 'right' ? t.verifier : verifier === 'wrong' ? '0000000' : undefined;
    const r = await client.post('/oauth/access_token', {}, { base: 'root', creds: signedWith(t.token, t.secret), ...(sent === undefined ? {} : { oauth: { oauth_verifier: sent } }) });
    expect(r.status).toBe(status);
    expect(r.body.errors).toEqual([expect.objectContaining({ code })]);
  });

  it('exchanges a request token only once', async () => {
    const { token, secret, verifier } = await approvedToken('oob');
    const send = (): Promise<{ status: number; body: any }> =>
      client.post('/oauth/access_token', {}, { base: 'root', creds: signedWith(token, secret), oauth: { oauth_verifier: verifier } });
    expect((await send()).status).toBe(200);
    const again = await send();
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ errors: [{ code: 89, message: 'Invalid or expired token.' }] });
  });

  it('refuses an oauth_token parameter that is not the signing request token', async () => {
    const { token, secret, verifier } = await approvedToken('oob');
    const other = await fetchRequestToken(client, 'oob');
    const r = await client.post('/oauth/access_token', { oauth_token: other.token }, { as: 'form', base: 'root', creds: signedWith(token, secret), oauth: { oauth_verifier: verifier } });
    expect(r.status).toBe(401);
    expect(r.body.errors[0].code).toBe(89);
  });

  it('refuses a request signed with an access token instead of the request token', async () => {
    const r = await client.post('/oauth/access_token', {}, { base: 'root', oauth: { oauth_verifier: '1234567' } });
    expect(r.status).toBe(401);
    expect(r.body.errors[0].code).toBe(89);
  });
});

describe('authorization pages', () => {
  const cases: Array<{ rule: string; params: (token: string) => Record<string, string>; status: number }> = [
    { rule: 'missing oauth_token', params: () => ({}), status: 400 },
    { rule: 'unknown oauth_token', params: () => ({ oauth_token: 'nope' }), status: 401 },
    { rule: 'oauth_callback sent to the page', params: (t) => ({ oauth_token: t, oauth_callback: CALLBACK }), status: 400 },
  ];
  it.each(cases)('GET /oauth/authorize with $rule → $status', async ({ params, status }) => {
    const { token } = await fetchRequestToken(client, 'oob');
    const r = await client.get('/oauth/authorize', params(token), { base: 'root', creds: null });
    expect(r.status).toBe(status);
    expect(r.text).not.toContain('id="oauth_form"');
  });

  it('refuses a request token that was already approved', async () => {
    const { token } = await approvedToken('oob');
    const r = await client.get('/oauth/authorize', { oauth_token: token }, { base: 'root', creds: null });
    expect(r.status).toBe(401);
  });

  it('shows the form again with an error for an unknown screen name', async () => {
    const { token } = await fetchRequestToken(client, 'oob');
    const r = await submitApproval(client, token, 'nobody_here');
    expect(r.text).toContain('id="oauth_error"');
    expect(pinOf(r.text)).toBeUndefined();
    const retry = await submitApproval(client, token, '@ADSCTL_ANALYST');
    expect(pinOf(retry.text)).toMatch(/^\d{7}$/);
  });

  it('asks for a choice when the form carries neither approve nor deny', async () => {
    const { token } = await fetchRequestToken(client, 'oob');
    const r = await client.post('/oauth/authorize', { oauth_token: token, screen_name: 'adsctl_analyst' }, { as: 'form', base: 'root', creds: null });
    expect(r.status).toBe(400);
    expect(r.text).toContain('id="oauth_error"');
  });

  it('escapes the screen name it echoes', async () => {
    const { token } = await fetchRequestToken(client, 'oob');
    const r = await client.get('/oauth/authorize', { oauth_token: token, screen_name: '"><script>x</script>' }, { base: 'root', creds: null });
    expect(r.text).not.toContain('<script>');
    expect(r.text).toContain('&quot;&gt;&lt;script&gt;');
  });
});

describe('POST /1.1/oauth/invalidate_token', () => {
  it('revokes the signing token: 401 code 89 everywhere afterwards, and a new login yields another token', async () => {
    const creds = await loginAs(client, 'adsctl_manager');
    const manager = client.as(creds);
    expect((await manager.get(`/12/accounts/${account}`)).status).toBe(200);

    const revoked = await manager.post('/1.1/oauth/invalidate_token', {}, { base: 'root' });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ access_token: creds.token });

    const ads = await manager.get(`/12/accounts/${account}`);
    expect(ads.status).toBe(401);
    expect(ads.body).toEqual({ errors: [{ code: 89, message: 'Invalid or expired token.' }], request: { params: {} } });
    const token = await manager.post('/1.1/oauth/invalidate_token', {}, { base: 'root' });
    expect(token.status).toBe(401);
    expect(token.body).toEqual({ errors: [{ code: 89, message: 'Invalid or expired token.' }] });

    const again = await loginAs(client, 'adsctl_manager');
    expect(again.token).not.toBe(creds.token);
    expect((await client.as(again).get(`/12/accounts/${account}`)).status).toBe(200);
  });
});
