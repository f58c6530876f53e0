/**
 * Verifies a signed OAuth 1.0a request against the stored applications and tokens. Returns what
 * was wrong as a value, so each surface can answer in its own dialect (integer codes on the token
 * endpoints, string codes on the advertising endpoints).
 */
import type { ParsedRequest } from '../request.js';
import type { Row } from '../store/row.js';
import type { Store } from '../store/store.js';
import type { NonceCache } from './nonces.js';
import { baseUri, bodyHash, hmacSha1, parseOAuthHeader, sameSignature, signatureBaseString } from './oauth.js';

/** Seconds a timestamp may differ from the server clock. */
export const TIMESTAMP_WINDOW_SECONDS = 300;

export type OAuthFailure =
  | 'missing'
  | 'unsupported_method'
  | 'unknown_consumer'
  | 'unknown_token'
  | 'revoked_token'
  | 'timestamp'
  | 'nonce'
  | 'body_hash'
  | 'signature';

type VerifyResult =
  | { ok: true; consumerKey: string; app: Row; token: Row | undefined; oauth: Map<string, string> }
  | { ok: false; failure: OAuthFailure };

/** Which kind of token the request must be signed with. */
export type TokenKind = 'access' | 'request' | 'none';

export function verifyOAuth(req: ParsedRequest, store: Store, nonces: NonceCache, nowSeconds: number, tokenKind: TokenKind): VerifyResult {
  const oauth = parseOAuthHeader(req.headers.authorization);
  if (oauth === undefined) return { ok: false, failure: 'missing' };
  const consumerKey = oauth.get('oauth_consumer_key');
  const signature = oauth.get('oauth_signature');
  const nonce = oauth.get('oauth_nonce');
  const timestamp = oauth.get('oauth_timestamp');
  if (consumerKey === undefined || signature === undefined || nonce === undefined || timestamp === undefined) {
    return { ok: false, failure: 'missing' };
  }
  if (oauth.get('oauth_signature_method') !== 'HMAC-SHA1') return { ok: false, failure: 'unsupported_method' };
  const version = oauth.get('oauth_version');
  if (version !== undefined && version !== '1.0') return { ok: false, failure: 'unsupported_method' };
  if (!/^[\x21-\x7e]+$/.test(nonce)) return { ok: false, failure: 'missing' };
  const app = store.get('app', consumerKey);
  if (app === undefined) return { ok: false, failure: 'unknown_consumer' };

  const tokenValue = oauth.get('oauth_token');
  let token: Row | undefined;
  if (tokenKind === 'none') {
    if (tokenValue !== undefined && tokenValue !== '') return { ok: false, failure: 'unknown_token' };
  } else {
    if (tokenValue === undefined || tokenValue === '') return { ok: false, failure: 'missing' };
    token = store.get(tokenKind === 'access' ? 'access_token' : 'request_token', tokenValue);
    if (token === undefined || token.ext['consumer_key'] !== consumerKey) return { ok: false, failure: 'unknown_token' };
    if (token.ext['revoked'] === true) return { ok: false, failure: 'revoked_token' };
  }

  const ts = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - ts) > TIMESTAMP_WINDOW_SECONDS) return { ok: false, failure: 'timestamp' };

  const declaredHash = oauth.get('oauth_body_hash');
  if (declaredHash !== undefined && declaredHash !== bodyHash(req.body)) return { ok: false, failure: 'body_hash' };

  const pairs: Array<[string, string]> = [...req.query, ...req.form];
  for (const [k, v] of oauth) if (k !== 'oauth_signature' && k !== 'realm') pairs.push([k, v]);
  const base = signatureBaseString(req.method, baseUri(req.scheme, req.host, req.fullPath), pairs);
  const expected = hmacSha1(base, String(app.ext['consumer_secret']), token === undefined ? '' : String(token.ext['secret']));
  if (!sameSignature(expected, signature)) return { ok: false, failure: 'signature' };

  if (!nonces.use(consumerKey, tokenValue ?? '', nonce, nowSeconds)) return { ok: false, failure: 'nonce' };
  return { ok: true, consumerKey, app, token, oauth };
}
