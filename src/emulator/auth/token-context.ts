/**
 * What every token endpoint shares: its dependencies, the rate limit charge per application and
 * endpoint, OAuth 1.0a verification answered in the integer-code dialect, parameter lookup across
 * the Authorization header, query and form body, and the response shapes.
 */
import { randomInt } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { WireError } from '../errors.js';
import type { RateLimiter } from '../rate-limits.js';
import type { RawResponse } from '../raw-response.js';
import type { ParsedRequest } from '../request.js';
import type { Row } from '../store/row.js';
import type { Store } from '../store/store.js';
import type { NonceCache } from './nonces.js';
import { parseOAuthHeader, percentEncode } from './oauth.js';
import { oauthFailure, rateLimitExceeded } from './token-errors.js';
import { verifyOAuth, type TokenKind } from './verify.js';

/** What the token endpoints need from the emulator. */
export interface TokenDeps {
  store: Store;
  clock: Clock;
  nonces: NonceCache;
  limiter: RateLimiter;
  log: (line: string) => void;
}

/** A request whose OAuth 1.0a signature checked out, with the rate limit headers to send back. */
interface SignedRequest {
  consumerKey: string;
  app: Row;
  /** The request or access token it was signed with (undefined for `tokenKind` none). */
  token: Row | undefined;
  /** The protocol parameters of the Authorization header. */
  oauth: Map<string, string>;
  headers: Record<string, string>;
}

/** Seconds since the epoch by the emulator's clock. */
export const nowSeconds = (deps: TokenDeps): number => Math.floor(deps.clock.now().getTime() / 1000);

/**
 * Draws one request from the application's budget for `endpoint` (family `token`), returning the
 * `x-rate-limit-*` headers; past the limit throws what `refuse` makes of those headers.
 */
export function chargeToken(
  deps: TokenDeps,
  endpoint: string,
  consumerKey: string,
  refuse: (headers: Record<string, string>) => WireError = rateLimitExceeded,
): Record<string, string> {
  const decision = deps.limiter.charge([{ key: `token:${endpoint}:${consumerKey}`, family: 'token' }], nowSeconds(deps));
  if (!decision.allowed) throw refuse(decision.headers);
  return decision.headers;
}

/**
 * Verifies the OAuth 1.0a signature of a token endpoint request signed with `tokenKind`. The
 * application named in the header is charged first (when it exists), so refused requests count
 * too; every failure becomes the integer-code error with the rate limit headers.
 */
export function verifySigned(deps: TokenDeps, req: ParsedRequest, endpoint: string, tokenKind: TokenKind): SignedRequest {
  const consumerKey = parseOAuthHeader(req.headers.authorization)?.get('oauth_consumer_key');
  const headers = consumerKey !== undefined && deps.store.get('app', consumerKey) !== undefined ? chargeToken(deps, endpoint, consumerKey) : {};
  const result = verifyOAuth(req, deps.store, deps.nonces, nowSeconds(deps), tokenKind);
  if (!result.ok) {
    deps.log(`token endpoint refused: ${result.failure} ${req.method} ${req.fullPath}`);
    throw oauthFailure(result.failure, headers);
  }
  return { consumerKey: result.consumerKey, app: result.app, token: result.token, oauth: result.oauth, headers };
}

/** A parameter from the query string or form body (the first occurrence), or undefined. */
export function param(req: ParsedRequest, name: string): string | undefined {
  for (const [k, v] of [...req.query, ...req.form]) if (k === name) return v;
  return undefined;
}

/** A protocol parameter: the Authorization header's value, else the query's or form body's. */
export function protocolParam(req: ParsedRequest, oauth: Map<string, string>, name: string): string | undefined {
  return oauth.get(name) ?? param(req, name);
}

/** A URL-encoded pairs response (`a=1&b=2`), with the content type the service sends for them. */
export function formResponse(pairs: ReadonlyArray<readonly [string, string]>, headers: Record<string, string>): RawResponse {
  return {
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&'),
    headers,
  };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` random characters from `[A-Za-z0-9]`. */
export function randomAlnum(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[randomInt(ALNUM.length)];
  return out;
}

/** `length` random decimal digits (a PIN). */
export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

/** The access level a token gets: the application's, narrowed to `read` when asked for. */
export function accessLevel(app: Row, requested: string | undefined): 'read' | 'read-write' {
  const appLevel = app.ext['access_level'] === 'read' ? 'read' : 'read-write';
  return requested === 'read' ? 'read' : appLevel;
}
