/**
 * A test-side OAuth 1.0a HMAC-SHA1 signer, written independently of the emulator's verifier so
 * that tests check the emulator against the RFC rather than against itself.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { testNow } from './test-clock.js';

export interface Credentials {
  consumerKey: string;
  consumerSecret: string;
  token?: string;
  tokenSecret?: string;
}

/** RFC 3986 §2.3 unreserved characters stay, every other UTF-8 byte becomes %XX. */
export function rfc3986(input: string): string {
  let out = '';
  for (const byte of Buffer.from(input, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export interface SignInput {
  method: string;
  /** Full URL including any query string (query values already percent-encoded as sent). */
  url: string;
  /** Form body parameters (sent as application/x-www-form-urlencoded), if any. */
  form?: Array<[string, string]>;
  /** Extra protocol parameters (oauth_callback, oauth_verifier, oauth_body_hash). */
  extraOAuth?: Record<string, string>;
  /** Raw non-form body to hash into oauth_body_hash. */
  bodyForHash?: Buffer;
  nonce?: string;
  timestamp?: number;
}

function queryPairs(url: URL): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  const search = url.search.startsWith('?') ? url.search.slice(1) : url.search;
  if (search === '') return pairs;
  for (const part of search.split('&')) {
    const [k, v = ''] = part.split('=') as [string, string?];
    pairs.push([decodeURIComponent(k.replace(/\+/g, ' ')), decodeURIComponent(v.replace(/\+/g, ' '))]);
  }
  return pairs;
}

/** Computes the signature and returns the Authorization header value. */
export function authorizationHeader(creds: Credentials, input: SignInput): string {
  const oauth: Record<string, string> = {
    oauth_consumer_key: creds.consumerKey,
    oauth_nonce: input.nonce ?? randomBytes(16).toString('hex'),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(input.timestamp ?? Math.floor(testNow() / 1000)),
    oauth_version: '1.0',
    ...(creds.token === undefined ? {} : { oauth_token: creds.token }),
    ...(input.extraOAuth ?? {}),
  };
  if (input.bodyForHash !== undefined) oauth['oauth_body_hash'] = createHash('sha1').update(input.bodyForHash).digest('base64');
  const signature = sign(creds, input, oauth);
  const header = { ...oauth, oauth_signature: signature };
  return `OAuth ${Object.keys(header)
    .sort()
    .map((k) => `${rfc3986(k)}="${rfc3986(header[k as keyof typeof header]!)}"`)
    .join(', ')}`;
}

export function sign(creds: Credentials, input: SignInput, oauth: Record<string, string>): string {
  const url = new URL(input.url);
  const all: Array<[string, string]> = [...queryPairs(url), ...(input.form ?? []), ...Object.entries(oauth)];
  const normalized = all
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([ka, va], [kb, vb]) => (ka === kb ? (va < vb ? -1 : va > vb ? 1 : 0) : ka < kb ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const origin = `${url.protocol}//${url.host}`.toLowerCase();
  const base = [input.method.toUpperCase(), rfc3986(`${origin}${url.pathname}`), rfc3986(normalized)].join('&');
  const key = `${rfc3986(creds.consumerSecret)}&${rfc3986(creds.tokenSecret ?? '')}`;
  return createHmac('sha1', key).update(base).digest('base64');
}
