/**
 * Application-only bearer tokens. `POST /oauth2/token` takes HTTP Basic client credentials (the
 * consumer key and secret, each form-encoded as RFC 6749 §2.3.1 says) and
 * `grant_type=client_credentials` in a form body, and answers `{"token_type":"bearer",
 * "access_token":...}`. An application has one bearer token: repeated calls return it until it is
 * invalidated. The token is percent-encoded on the wire (`AAAA...%2F...%3D...`), as the service's
 * are; clients send it back as received. Calls past the endpoint's rate limit (family `token`:
 * 300 per 15 minutes per application, scaled by the emulator's rate limit options) are "too
 * frequent" and get 403 code 99. `POST /oauth2/invalidate_token` (OAuth 1.0a with the
 * application owner's access token, `access_token` parameter) revokes it for good.
 */
import { randomBytes } from 'node:crypto';
import { json, type RawResponse } from '../raw-response.js';
import type { ParsedRequest } from '../request.js';
import type { Row } from '../store/row.js';
import type { Store } from '../store/store.js';
import { percentEncode, sameSignature } from './oauth.js';
import { chargeToken, param, randomAlnum, verifySigned, type TokenDeps } from './token-context.js';
import {
  credentialsNotAllowed,
  invalidOrExpiredToken,
  missingGrantType,
  parameterInvalid,
  parameterMissing,
  unableToVerifyCredentials,
} from './token-errors.js';

const formDecode = (s: string): string => decodeURIComponent(s.replace(/\+/g, ' '));

/** The consumer key and secret of an `Authorization: Basic` header, or undefined when malformed. */
function basicCredentials(header: string | undefined): { key: string; secret: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (m === null) return undefined;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return { key: formDecode(text.slice(0, colon)), secret: formDecode(text.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

function liveBearer(store: Store, consumerKey: string): Row | undefined {
  const rows = store.table('bearer_token').under('app', consumerKey);
  for (let i = rows.length - 1; i >= 0; i--) if (rows[i]!.ext['revoked'] !== true) return rows[i];
  return undefined;
}

/** The stored bearer token for a value as a client sends it back (percent-encoded or not). */
function bearerRow(store: Store, value: string): Row | undefined {
  const direct = store.get('bearer_token', value);
  if (direct !== undefined) return direct;
  try {
    return store.get('bearer_token', decodeURIComponent(value));
  } catch {
    return undefined;
  }
}

/** `POST /oauth2/token`: the application's live bearer token, created when it has none. */
export function issueBearer(deps: TokenDeps, req: ParsedRequest): RawResponse {
  const creds = basicCredentials(req.headers.authorization);
  const app = creds === undefined ? undefined : deps.store.get('app', creds.key);
  if (creds === undefined || app === undefined || !sameSignature(String(app.ext['consumer_secret']), creds.secret)) {
    throw unableToVerifyCredentials();
  }
  const headers = chargeToken(deps, 'oauth2_token', app.id, unableToVerifyCredentials);
  if (req.contentType !== 'application/x-www-form-urlencoded') throw parameterInvalid('Content-Type', headers);
  const grantType = param(req, 'grant_type');
  if (grantType === undefined || grantType === '') throw missingGrantType(headers);
  if (grantType !== 'client_credentials') throw parameterInvalid('grant_type', headers);

  const row = deps.store.transaction(() => {
    const live = liveBearer(deps.store, app.id);
    if (live !== undefined) return live;
    const raw = `AAAAAAAAAAAAAAAAAAAAA${randomAlnum(22)}${randomBytes(18).toString('base64')}=${randomAlnum(50)}`;
    return deps.store.insert('bearer_token', raw, '', { token_type: 'bearer', access_token: percentEncode(raw) }, { consumer_key: app.id, revoked: false });
  });
  return json(200, { token_type: 'bearer', access_token: row.rec['access_token'] }, headers);
}

/** `POST /oauth2/invalidate_token`: revokes the application's bearer token named by `access_token`. */
export function invalidateBearer(deps: TokenDeps, req: ParsedRequest): RawResponse {
  const signed = verifySigned(deps, req, 'oauth2_invalidate_token', 'access');
  if (String(signed.token!.ext['user_id']) !== String(signed.app.ext['owner_user_id'])) throw credentialsNotAllowed(signed.headers);
  const value = param(req, 'access_token');
  if (value === undefined || value === '') throw parameterMissing('access_token', signed.headers);
  const row = bearerRow(deps.store, value);
  if (row === undefined || row.ext['consumer_key'] !== signed.consumerKey || row.ext['revoked'] === true) throw invalidOrExpiredToken(signed.headers);
  deps.store.transaction(() => deps.store.update(row, {}, { revoked: true }));
  return json(200, { access_token: row.rec['access_token'] }, signed.headers);
}
