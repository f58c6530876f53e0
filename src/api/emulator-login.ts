/**
 * Logging in as one of the emulator's seeded users without a browser (`adsctl api --as`): the
 * three-legged PIN flow of Part A, with the approval page — which on the emulator asks only for a
 * screen name, having no passwords — answered by the client itself. Every step is a request of
 * the one client (oauth-flow.ts for steps 1 and 3). The real service's approval page needs a
 * person and a password, so this reaches only an emulator.
 */
import { ApiClient, type ClientOptions } from './client.js';
import { accessToken, requestToken } from './oauth-flow.js';
import type { OAuthCredentials } from './signer.js';

/** The PIN the emulator's approval page shows once a user approved (`<code id="oauth_pin">`). */
const PIN = /<code id="oauth_pin">(\d+)<\/code>/;

/**
 * The credentials of the seeded user `screenName` for the application `consumer`, with the user's
 * id; undefined when the emulator has no user of that screen name. API errors are thrown.
 */
export async function loginAsSeededUser(
  options: Omit<ClientOptions, 'credentials'>,
  consumer: { consumerKey: string; consumerSecret: string },
  screenName: string,
): Promise<{ credentials: OAuthCredentials; userId: string } | undefined> {
  const pending = await requestToken(options, consumer);
  const client = new ApiClient({ ...options, credentials: consumer });
  let page: unknown;
  try {
    const form = { oauth_token: pending.token, screen_name: screenName, approve: '1' };
    page = (await client.send({ method: 'POST', base: 'root', path: '/oauth/authorize', params: form, endpoint: 'oauth.authorize', idempotent: true })).body;
  } finally {
    await client.close();
  }
  const pin = typeof page === 'string' ? PIN.exec(page)?.[1] : undefined;
  if (pin === undefined) return undefined;
  const user = await accessToken(options, consumer, pending, pin);
  return { credentials: { ...consumer, token: user.token, tokenSecret: user.secret }, userId: user.userId };
}
