/**
 * `POST /1.1/oauth/invalidate_token`: a request signed with an access token revokes that token.
 * The answer is `{"access_token": <token>}`; from then on the token gets 401 code 89 on every
 * surface, and authorizing the application again yields a different token.
 */
import { json, type RawResponse } from '../raw-response.js';
import type { ParsedRequest } from '../request.js';
import { verifySigned, type TokenDeps } from './token-context.js';

/** Revokes the access token the request is signed with. */
export function invalidateAccessToken(deps: TokenDeps, req: ParsedRequest): RawResponse {
  const signed = verifySigned(deps, req, 'invalidate_token', 'access');
  const token = signed.token!;
  deps.store.transaction(() => deps.store.update(token, {}, { revoked: true }));
  return json(200, { access_token: token.id }, signed.headers);
}
