/**
 * The token endpoints (Part A): the three-legged PIN flow, token revocation, and the
 * application-only bearer token. Each step is one signed request through the client.
 */
import { ApiClient, type ClientOptions } from './client.js';
import { ApiError } from './errors.js';
import type { OAuthCredentials } from './signer.js';

/** A request token waiting for the user's approval. */
interface RequestToken {
  token: string;
  secret: string;
  /** Where the user approves the application and gets the PIN. */
  authorizeUrl: string;
}

/** The user's access token after approval. */
interface AccessToken {
  token: string;
  secret: string;
  userId: string;
  screenName: string;
}

function form(body: unknown, request: string): URLSearchParams {
  if (typeof body !== 'string') throw new ApiError({ status: 200, items: [{ code: 'UNEXPECTED_RESPONSE', message: 'expected a URL-encoded body' }], retryable: false, outcome: 'rejected', request });
  return new URLSearchParams(body);
}

function required(params: URLSearchParams, name: string, request: string): string {
  const v = params.get(name);
  if (v === null || v === '') throw new ApiError({ status: 200, items: [{ code: 'UNEXPECTED_RESPONSE', message: `response lacks ${name}` }], retryable: false, outcome: 'rejected', request });
  return v;
}

type Base = Omit<ClientOptions, 'credentials'>;

/** Step 1: a request token for PIN (`oob`) or callback mode. */
export async function requestToken(options: Base, consumer: { consumerKey: string; consumerSecret: string }, callback = 'oob'): Promise<RequestToken> {
  const client = new ApiClient({ ...options, credentials: consumer });
  try {
    const res = await client.send({ method: 'POST', base: 'root', path: '/oauth/request_token', endpoint: 'oauth.request_token', oauth: { oauth_callback: callback }, idempotent: true });
    const p = form(res.body, 'POST /oauth/request_token');
    const token = required(p, 'oauth_token', 'POST /oauth/request_token');
    return { token, secret: required(p, 'oauth_token_secret', 'POST /oauth/request_token'), authorizeUrl: `${options.endpoint.baseUrl}/oauth/authorize?oauth_token=${encodeURIComponent(token)}` };
  } finally {
    await client.close();
  }
}

/** Step 3: exchanges the approved request token and the verifier (PIN) for an access token. */
export async function accessToken(options: Base, consumer: { consumerKey: string; consumerSecret: string }, request: RequestToken, verifier: string): Promise<AccessToken> {
  const client = new ApiClient({ ...options, credentials: { ...consumer, token: request.token, tokenSecret: request.secret } });
  try {
    const res = await client.send({ method: 'POST', base: 'root', path: '/oauth/access_token', endpoint: 'oauth.access_token', oauth: { oauth_verifier: verifier }, idempotent: true });
    const p = form(res.body, 'POST /oauth/access_token');
    return {
      token: required(p, 'oauth_token', 'POST /oauth/access_token'),
      secret: required(p, 'oauth_token_secret', 'POST /oauth/access_token'),
      userId: required(p, 'user_id', 'POST /oauth/access_token'),
      screenName: p.get('screen_name') ?? '',
    };
  } finally {
    await client.close();
  }
}

/** Revokes the access token the credentials carry; afterwards it is refused (401, code 89). */
export async function invalidateToken(options: Base, credentials: OAuthCredentials): Promise<string> {
  const client = new ApiClient({ ...options, credentials });
  try {
    const res = await client.send<{ access_token?: string }>({ method: 'POST', base: 'root', path: '/1.1/oauth/invalidate_token', endpoint: 'oauth.invalidate_token', idempotent: true });
    return res.body.access_token ?? credentials.token ?? '';
  } finally {
    await client.close();
  }
}

/** The application-only bearer token (the same one until it is invalidated). */
export async function bearerToken(options: Base, consumer: { consumerKey: string; consumerSecret: string }): Promise<string> {
  const client = new ApiClient({ ...options, credentials: consumer });
  try {
    const res = await client.send<{ token_type?: string; access_token?: string }>({
      method: 'POST',
      base: 'root',
      path: '/oauth2/token',
      params: { grant_type: 'client_credentials' },
      endpoint: 'oauth2.token',
      basic: { user: consumer.consumerKey, password: consumer.consumerSecret },
      idempotent: true,
    });
    if (res.body.token_type?.toLowerCase() !== 'bearer' || typeof res.body.access_token !== 'string') {
      throw new ApiError({ status: res.status, items: [{ code: 'UNEXPECTED_RESPONSE', message: 'expected {token_type: "bearer", access_token}' }], retryable: false, outcome: 'rejected', request: 'POST /oauth2/token' });
    }
    return res.body.access_token;
  } finally {
    await client.close();
  }
}

/** Revokes a bearer token; signed with the application owner's user credentials. */
export async function invalidateBearer(options: Base, owner: OAuthCredentials, bearer: string): Promise<string> {
  const client = new ApiClient({ ...options, credentials: owner });
  try {
    const res = await client.send<{ access_token?: string }>({ method: 'POST', base: 'root', path: '/oauth2/invalidate_token', params: { access_token: bearer }, endpoint: 'oauth2.invalidate_token', idempotent: true });
    return res.body.access_token ?? bearer;
  } finally {
    await client.close();
  }
}
