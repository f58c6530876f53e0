/**
 * Who is calling an advertising endpoint: a bearer token (application only) or an OAuth 1.0a
 * signed request with a user's access token. Failures are the service's 401s: code 89 for a
 * revoked token, `UNAUTHORIZED_ACCESS` for everything else (the reason goes to the log only).
 */
import type { NonceCache } from './auth/nonces.js';
import { verifyOAuth } from './auth/verify.js';
import type { Clock } from './clock.js';
import type { Principal } from './context.js';
import { invalidToken, unauthorized } from './errors.js';
import type { ParsedRequest } from './request.js';
import type { Store } from './store/store.js';

/** Authenticates an advertising request; throws the service's 401 error when it cannot. */
export function authenticate(req: ParsedRequest, store: Store, nonces: NonceCache, clock: Clock, log: (line: string) => void): Principal {
  const header = req.headers.authorization ?? '';
  const nowS = Math.floor(clock.now().getTime() / 1000);
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer !== null) {
    let value: string;
    try {
      value = decodeURIComponent(bearer[1]!);
    } catch {
      throw unauthorized(); // not valid percent-encoding: no token of ours
    }
    const row = store.get('bearer_token', value);
    if (row === undefined) throw unauthorized();
    if (row.ext['revoked'] === true) throw invalidToken();
    return { kind: 'app', consumerKey: String(row.ext['consumer_key']) };
  }
  const result = verifyOAuth(req, store, nonces, nowS, 'access');
  if (!result.ok) {
    log(`auth refused: ${result.failure} ${req.method} ${req.fullPath}`);
    throw result.failure === 'revoked_token' ? invalidToken() : unauthorized();
  }
  const token = result.token!;
  return { kind: 'user', userId: String(token.ext['user_id']), consumerKey: result.consumerKey, token: token.id, readOnly: token.ext['access_level'] === 'read' };
}
