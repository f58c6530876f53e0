/**
 * The token endpoints' error dialect: integer codes with the service's messages, in a body
 * `{"errors":[{"code":32,"message":"Could not authenticate you."}]}` (no `request` echo). The
 * advertising endpoints answer authentication problems with string codes instead (errors.ts).
 */
import { WireError } from '../errors.js';
import type { OAuthFailure } from './verify.js';

type Headers = Record<string, string>;

const error = (status: number, code: number, message: string, headers: Headers): WireError => new WireError(status, [{ code, message }], headers);

/** 401 code 32: bad signature, unknown consumer, replayed nonce, wrong verifier. */
export const couldNotAuthenticate = (headers: Headers = {}): WireError => error(401, 32, 'Could not authenticate you.', headers);

/** 401 code 89: unknown, revoked, used or denied token. */
export const invalidOrExpiredToken = (headers: Headers = {}): WireError => error(401, 89, 'Invalid or expired token.', headers);

/** 401 code 135: `oauth_timestamp` outside the accepted window. */
const timestampOutOfBounds = (headers: Headers = {}): WireError => error(401, 135, 'Timestamp out of bounds.', headers);

/** 400 code 215: no or malformed OAuth data (no header, missing protocol parameters, non-ASCII nonce). */
const badAuthenticationData = (headers: Headers = {}): WireError => error(400, 215, 'Bad Authentication data.', headers);

/** 403 code 38: a required parameter is missing. */
export const parameterMissing = (name: string, headers: Headers = {}): WireError => error(403, 38, `${name} parameter is missing.`, headers);

/** 400 code 44: a parameter has a value the endpoint does not take. */
export const parameterInvalid = (name: string, headers: Headers = {}): WireError => error(400, 44, `${name} parameter is invalid.`, headers);

/** 403 code 415: `oauth_callback` is neither `oob` nor registered for the application. */
export const callbackNotApproved = (headers: Headers = {}): WireError =>
  error(403, 415, 'Callback URL not approved for this client application. Approved callback URLs can be adjusted in your application settings', headers);

/** 403 code 99: bad client credentials on `oauth2/token`, or a bearer token requested too often. */
export const unableToVerifyCredentials = (headers: Headers = {}): WireError => error(403, 99, 'Unable to verify your credentials', headers);

/** 403 code 170: `grant_type` absent on `oauth2/token`. */
export const missingGrantType = (headers: Headers = {}): WireError => error(403, 170, 'Missing required parameter: grant_type', headers);

/** 403 code 220: valid credentials that may not use this endpoint (a non-owner on `oauth2/invalidate_token`). */
export const credentialsNotAllowed = (headers: Headers = {}): WireError =>
  error(403, 220, 'Your credentials do not allow access to this resource.', headers);

/** 429 code 88: the token endpoint's rate limit for this application is used up. */
export const rateLimitExceeded = (headers: Headers = {}): WireError => error(429, 88, 'Rate limit exceeded.', headers);

/** 404 code 34: no token endpoint at this method and path. */
export const pageDoesNotExist = (): WireError => error(404, 34, 'Sorry, that page does not exist.', {});

/** The token endpoints' answer to a failed OAuth 1.0a verification. */
export function oauthFailure(failure: OAuthFailure, headers: Headers = {}): WireError {
  switch (failure) {
    case 'missing':
      return badAuthenticationData(headers);
    case 'unknown_token':
    case 'revoked_token':
      return invalidOrExpiredToken(headers);
    case 'timestamp':
      return timestampOutOfBounds(headers);
    case 'unsupported_method':
    case 'unknown_consumer':
    case 'nonce':
    case 'body_hash':
    case 'signature':
      return couldNotAuthenticate(headers);
  }
}
