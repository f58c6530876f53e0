/**
 * User access tokens for tests, obtained the way a person would: the three-legged OAuth flow in
 * PIN mode over plain HTTP (request token, approval form, PIN, access token). Use it to act as a
 * seeded user other than the owner, e.g. `client.as(await loginAs(client, 'adsctl_analyst'))`.
 */
import type { Params, Reply, TestClient } from './client.js';
import type { Credentials } from './signer.js';

/** How `loginAs` asks for the token. */
export interface LoginOptions {
  /** Sent as x_auth_access_type on the request token step. */
  accessType?: 'read' | 'write';
}

/** Decodes a URL-encoded pairs body (`oauth_token=...&oauth_token_secret=...`). */
export function parsePairs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
    out[key] = decodeURIComponent(eq < 0 ? '' : part.slice(eq + 1));
  }
  return out;
}

/** The PIN of the PIN page (`<code id="oauth_pin">`), or undefined. */
export function pinOf(html: string): string | undefined {
  return /<code id="oauth_pin">([^<]*)<\/code>/.exec(html)?.[1];
}

/** The application's consumer keys of a client, without any token. */
export function consumerOf(client: TestClient): Credentials {
  return { consumerKey: client.creds.consumerKey, consumerSecret: client.creds.consumerSecret };
}

/** Step 1 with `oauth_callback` in the Authorization header; the reply and its decoded pairs. */
export async function fetchRequestToken(
  client: TestClient,
  callback: string,
  params: Params = {},
): Promise<{ reply: Reply; token: string; secret: string; pairs: Record<string, string> }> {
  const reply = await client.post('/oauth/request_token', params, { base: 'root', creds: consumerOf(client), oauth: { oauth_callback: callback } });
  const pairs = reply.status === 200 ? parsePairs(reply.text) : {};
  return { reply, token: pairs['oauth_token'] ?? '', secret: pairs['oauth_token_secret'] ?? '', pairs };
}

/** Submits the approval form for `oauthToken` as `screenName` (no redirects are followed). */
export function submitApproval(client: TestClient, oauthToken: string, screenName: string, choice: 'approve' | 'deny' = 'approve'): Promise<Reply> {
  return client.post('/oauth/authorize', { oauth_token: oauthToken, screen_name: screenName, [choice]: '1' }, { as: 'form', base: 'root', creds: null });
}

/**
 * Logs in as the seeded user `screenName` with the client's application keys and returns the
 * user's credentials. Throws, naming the step, when any step does not succeed.
 */
export async function loginAs(client: TestClient, screenName: string, options: LoginOptions = {}): Promise<Credentials> {
  const consumer = consumerOf(client);
  const step1 = await fetchRequestToken(client, 'oob', options.accessType === undefined ? {} : { x_auth_access_type: options.accessType });
  if (step1.reply.status !== 200) throw new Error(`loginAs(${screenName}): request_token answered ${step1.reply.status}: ${step1.reply.text}`);
  const oauthToken = step1.token;

  const page = await client.get('/oauth/authorize', { oauth_token: oauthToken }, { base: 'root', creds: null });
  if (page.status !== 200) throw new Error(`loginAs(${screenName}): authorize page answered ${page.status}: ${page.text}`);
  const approved = await submitApproval(client, oauthToken, screenName);
  const pin = pinOf(approved.text);
  if (pin === undefined) throw new Error(`loginAs(${screenName}): no PIN after approval (${approved.status}): ${approved.text}`);

  const step3 = await client.post('/oauth/access_token', {}, {
    base: 'root',
    creds: { ...consumer, token: oauthToken, tokenSecret: step1.secret },
    oauth: { oauth_verifier: pin },
  });
  if (step3.status !== 200) throw new Error(`loginAs(${screenName}): access_token answered ${step3.status}: ${step3.text}`);
  const access = parsePairs(step3.text);
  return { ...consumer, token: access['oauth_token'] ?? '', tokenSecret: access['oauth_token_secret'] ?? '' };
}
