/**
 * `POST /oauth/request_token`, step 1 of the three-legged flow: a request signed with the
 * consumer keys alone and carrying `oauth_callback` (in the Authorization header, or as a query
 * or form parameter) gets a fresh request token. The callback must be `oob` (PIN mode) or one of
 * the application's registered callback URLs; a registered URL may carry an extra query string.
 * `x_auth_access_type` (`read` or `write`) narrows the access level of the token to come.
 * A request token lives `REQUEST_TOKEN_LIFETIME_SECONDS` on the emulator's clock; steps 2 and 3
 * refuse it afterwards as the service refuses an unknown one.
 */
import type { RawResponse } from '../raw-response.js';
import type { ParsedRequest } from '../request.js';
import type { Row } from '../store/row.js';
import { accessLevel, formResponse, nowSeconds, param, protocolParam, randomAlnum, verifySigned, type TokenDeps } from './token-context.js';
import { callbackNotApproved, parameterInvalid, parameterMissing } from './token-errors.js';

/** How long a request token may be authorized and exchanged: 15 minutes (the spec names no lifetime). */
const REQUEST_TOKEN_LIFETIME_SECONDS = 15 * 60;

/** True when request token `token` was issued more than the lifetime before `nowSeconds`. */
export function requestTokenExpired(token: Row, nowSeconds: number): boolean {
  const issued = token.ext['issued_at'];
  return typeof issued === 'number' && nowSeconds - issued > REQUEST_TOKEN_LIFETIME_SECONDS;
}

/** True when `callback` is `oob` or a registered callback URL (ignoring its query string). */
function callbackApproved(app: Row, callback: string): boolean {
  if (callback === 'oob') return true;
  const registered = app.rec['callback_urls'];
  if (!Array.isArray(registered)) return false;
  const q = callback.indexOf('?');
  const bare = q < 0 ? callback : callback.slice(0, q);
  return registered.some((url) => url === bare || url === callback);
}

/** Answers step 1 with `oauth_token`, `oauth_token_secret`, `oauth_callback_confirmed=true`. */
export function requestToken(deps: TokenDeps, req: ParsedRequest): RawResponse {
  const signed = verifySigned(deps, req, 'request_token', 'none');
  const callback = protocolParam(req, signed.oauth, 'oauth_callback');
  if (callback === undefined || callback === '') throw parameterMissing('oauth_callback', signed.headers);
  if (!callbackApproved(signed.app, callback)) throw callbackNotApproved(signed.headers);
  const requested = param(req, 'x_auth_access_type');
  if (requested !== undefined && requested !== 'read' && requested !== 'write') throw parameterInvalid('x_auth_access_type', signed.headers);

  const token = randomAlnum(27);
  const secret = randomAlnum(32);
  deps.store.transaction(() => {
    deps.store.insert('request_token', token, '', { oauth_token: token }, {
      secret,
      consumer_key: signed.consumerKey,
      callback,
      access_level: accessLevel(signed.app, requested),
      revoked: false,
      user_id: null,
      verifier: null,
      issued_at: nowSeconds(deps),
    });
  });
  return formResponse(
    [
      ['oauth_token', token],
      ['oauth_token_secret', secret],
      ['oauth_callback_confirmed', 'true'],
    ],
    signed.headers,
  );
}
