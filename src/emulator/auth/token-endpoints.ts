/** The token endpoints (Part A, Token endpoints). */
import type { Clock } from '../clock.js';
import { routeNotFound } from '../errors.js';
import type { RateLimiter } from '../rate-limits.js';
import type { RawResponse } from '../raw-response.js';
import type { ParsedRequest } from '../request.js';
import type { Store } from '../store/store.js';
import type { NonceCache } from './nonces.js';

export interface TokenDeps {
  store: Store;
  clock: Clock;
  nonces: NonceCache;
  limiter: RateLimiter;
  log: (line: string) => void;
}

export function handleTokenRequest(_deps: TokenDeps, _req: ParsedRequest): RawResponse {
  throw routeNotFound();
}
