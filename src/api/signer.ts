/**
 * OAuth 1.0a HMAC-SHA1 request signing (RFC 5849 §3.4) on node:crypto. Our own because the
 * `oauth-1.0a` package signs a `+` in a query as a literal plus, mutates its inputs and hashes
 * bodies with HMAC (docs/architecture.md, "Dependencies"). Parameters are passed decoded, and the same
 * pairs are encoded onto the wire by `encodePairs`, so what is signed is what is sent.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';

/** Consumer key and secret, and the user's token and secret when acting for a user. */
export interface OAuthCredentials {
  consumerKey: string;
  consumerSecret: string;
  token?: string;
  tokenSecret?: string;
}

/** RFC 3986 percent-encoding: only `A-Z a-z 0-9 - . _ ~` stay; uppercase hex. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `k=v&k2=v2` with RFC 3986 encoding: the form of both query strings and form bodies we send. */
export function encodePairs(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
}

interface SignableRequest {
  method: string;
  /** Scheme, host, port and path; no query string. */
  url: string;
  /** Decoded query and form-body pairs. */
  params: ReadonlyArray<readonly [string, string]>;
  /** Protocol parameters beyond the standard ones: oauth_callback, oauth_verifier. */
  extra?: Readonly<Record<string, string>>;
  /** A non-form body (JSON) to cover with `oauth_body_hash`. */
  body?: string | Buffer;
  nonce?: string;
  timestamp?: number;
}

/** The signature base string: METHOD & encoded base URI & encoded sorted parameter string. */
export function baseString(method: string, url: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  const u = new URL(url);
  const defaultPort = (u.protocol === 'http:' && u.port === '80') || (u.protocol === 'https:' && u.port === '443');
  const uri = `${u.protocol.toLowerCase()}//${u.hostname.toLowerCase()}${u.port === '' || defaultPort ? '' : `:${u.port}`}${u.pathname}`;
  const encoded = pairs.map(([k, v]) => [percentEncode(k), percentEncode(v)] as const);
  encoded.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  const paramString = encoded.map(([k, v]) => `${k}=${v}`).join('&');
  return `${method.toUpperCase()}&${percentEncode(uri)}&${percentEncode(paramString)}`;
}

/** The `oauth_signature` value for a base string. */
export function signature(base: string, consumerSecret: string, tokenSecret = ''): string {
  return createHmac('sha1', `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`).update(base).digest('base64');
}

/** The `Authorization: OAuth ...` header value for a request. Inputs are not modified. */
export function oauthHeader(creds: OAuthCredentials, req: SignableRequest): string {
  const protocol: Record<string, string> = {
    oauth_consumer_key: creds.consumerKey,
    oauth_nonce: req.nonce ?? randomBytes(18).toString('base64url'),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(req.timestamp ?? Math.floor(Date.now() / 1000)),
    oauth_version: '1.0',
    ...(creds.token === undefined ? {} : { oauth_token: creds.token }),
    ...(req.extra ?? {}),
  };
  if (req.body !== undefined) protocol['oauth_body_hash'] = createHash('sha1').update(req.body).digest('base64');
  const base = baseString(req.method, req.url, [...req.params, ...Object.entries(protocol)]);
  protocol['oauth_signature'] = signature(base, creds.consumerSecret, creds.tokenSecret);
  return `OAuth ${Object.entries(protocol)
    .map(([k, v]) => `${percentEncode(k)}="${percentEncode(v)}"`)
    .join(', ')}`;
}
