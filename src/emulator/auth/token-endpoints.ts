/**
 * The token endpoints (Part A, Token endpoints), served at the root of the emulator's base URL:
 * the OAuth 1.0a three-legged flow (request token, authorization pages, access token, access
 * token revocation) and the OAuth 2.0 application-only bearer token (issue, revoke). Every one is
 * rate limited per application and endpoint (family `token`). Errors use the integer codes of
 * token-errors.ts; a method and path that is none of these answers 404 code 34.
 */
import type { RawResponse } from '../raw-response.js';
import type { ParsedRequest } from '../request.js';
import { accessToken } from './access-token.js';
import { authorizePage, submitAuthorization } from './authorize-page.js';
import { invalidateBearer, issueBearer } from './bearer.js';
import { invalidateAccessToken } from './invalidate-token.js';
import { requestToken } from './request-token.js';
import type { TokenDeps } from './token-context.js';
import { pageDoesNotExist } from './token-errors.js';

type TokenHandler = (deps: TokenDeps, req: ParsedRequest) => RawResponse;

const ENDPOINTS = new Map<string, TokenHandler>([
  ['POST /oauth/request_token', requestToken],
  ['GET /oauth/authorize', (deps, req) => authorizePage(deps, req, 'authorize')],
  ['GET /oauth/authenticate', (deps, req) => authorizePage(deps, req, 'authenticate')],
  ['POST /oauth/authorize', submitAuthorization],
  ['POST /oauth/access_token', accessToken],
  ['POST /1.1/oauth/invalidate_token', invalidateAccessToken],
  ['POST /1.1/oauth/invalidate_token.json', invalidateAccessToken],
  ['POST /oauth2/token', issueBearer],
  ['POST /oauth2/invalidate_token', invalidateBearer],
]);

/** Serves one request addressed to the token endpoints; throws a `WireError` for error answers. */
export function handleTokenRequest(deps: TokenDeps, req: ParsedRequest): RawResponse {
  const handler = ENDPOINTS.get(`${req.method} ${req.path}`);
  if (handler === undefined) throw pageDoesNotExist();
  return handler(deps, req);
}
