/**
 * `POST /oauth/access_token`, step 3: a request signed with the consumer keys and the request
 * token of step 1, carrying the `oauth_verifier` that step 2 gave out (in the Authorization
 * header, or as a query or form parameter), exchanges the request token once for an access token
 * of the approving user. Every exchange creates a new access token, so a user may hold several
 * (one per login), each revocable on its own.
 */
import type { RawResponse } from '../raw-response.js';
import type { ParsedRequest } from '../request.js';
import type { Row } from '../store/row.js';
import type { Store } from '../store/store.js';
import { formResponse, nowSeconds, param, protocolParam, randomAlnum, verifySigned, type TokenDeps } from './token-context.js';
import { requestTokenExpired } from './request-token.js';
import { couldNotAuthenticate, invalidOrExpiredToken, parameterMissing } from './token-errors.js';

/** A new access token of the user for the application at this access level. */
function newAccessToken(store: Store, consumerKey: string, userId: string, level: string): Row {
  const token = `${userId}-${randomAlnum(40)}`;
  return store.insert('access_token', token, '', { token }, {
    secret: randomAlnum(45),
    consumer_key: consumerKey,
    user_id: userId,
    access_level: level,
    revoked: false,
  });
}

/** Answers step 3 with `oauth_token`, `oauth_token_secret`, `user_id`, `screen_name`. */
export function accessToken(deps: TokenDeps, req: ParsedRequest): RawResponse {
  const signed = verifySigned(deps, req, 'access_token', 'request');
  const requestToken = signed.token!;
  const named = param(req, 'oauth_token');
  if (named !== undefined && named !== requestToken.id) throw invalidOrExpiredToken(signed.headers);
  if (requestTokenExpired(requestToken, nowSeconds(deps))) throw invalidOrExpiredToken(signed.headers);
  const verifier = protocolParam(req, signed.oauth, 'oauth_verifier');
  if (verifier === undefined || verifier === '') throw parameterMissing('oauth_verifier', signed.headers);
  const expected = requestToken.ext['verifier'];
  if (typeof expected !== 'string' || verifier !== expected) {
    deps.log(`access_token refused: ${typeof expected === 'string' ? 'wrong oauth_verifier' : 'request token not authorized yet'}`);
    throw couldNotAuthenticate(signed.headers);
  }
  const userId = String(requestToken.ext['user_id']);
  const user = deps.store.get('user', userId);
  if (user === undefined) throw invalidOrExpiredToken(signed.headers);

  const token = deps.store.transaction(() => {
    deps.store.update(requestToken, {}, { revoked: true, exchanged: true });
    return newAccessToken(deps.store, signed.consumerKey, userId, String(requestToken.ext['access_level']));
  });
  return formResponse(
    [
      ['oauth_token', token.id],
      ['oauth_token_secret', String(token.ext['secret'])],
      ['user_id', userId],
      ['screen_name', String(user.rec['screen_name'])],
    ],
    signed.headers,
  );
}
