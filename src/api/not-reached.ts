/**
 * Answers that are not the service's (client.ts): a request that never reached it — an unknown
 * host, a refused or unreachable connection, a TLS endpoint that is not one, a certificate not
 * trusted — told apart so that any request may be sent again and the run says why in one line;
 * and an answer from something that is not the advertising API (a web server, a proxy's page).
 */
import type { Endpoint } from './endpoints.js';
import { ApiError } from './errors.js';
import { errors as undiciErrors } from './undici-lean.js';

/** The statuses a request is retried on (idempotent requests, with backoff). */
export const RETRYABLE_STATUS: ReadonlySet<number> = new Set([500, 502, 503, 504]);

/** An answer as the client read it. */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** Why a request never reached the service; `retry` when trying again later could help. */
interface Unreached {
  code: string;
  reason: string;
  retry: boolean;
  /** The answer is the same however long one tries (a certificate, a protocol): no timeout is named. */
  final?: true;
}

/** TLS certificates Node refuses, with the code it names them by. */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const errorCode = (error: unknown): string | undefined => {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const first = (error as { errors?: unknown }).errors;
  return Array.isArray(first) ? errorCode(first[0]) : undefined;
};

/**
 * The failures where no byte of the request reached the service, so that any request, a create
 * included, may be sent again: an unknown host name (not worth retrying), a temporary DNS failure,
 * a refused, unroutable or timed-out connection, and a client already closed.
 */
export function unreachedCause(error: unknown): Unreached | undefined {
  if (error instanceof undiciErrors.ClientClosedError || error instanceof undiciErrors.ClientDestroyedError) return { code: 'CLOSED', reason: 'the client was closed', retry: false };
  const code = errorCode(error);
  switch (code) {
    case 'ENOTFOUND':
      return { code, reason: 'does not resolve', retry: false };
    case 'EAI_AGAIN':
      return { code, reason: 'could not be resolved', retry: true };
    case 'ECONNREFUSED':
      return { code, reason: 'connection refused', retry: true };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { code, reason: 'host unreachable', retry: true };
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { code, reason: 'no connection within the connect timeout', retry: true };
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'EPROTO':
      return { code, reason: `the server does not answer in TLS (${code}): is the endpoint http://, not https://?`, retry: false, final: true };
    default:
      if (code !== undefined && UNTRUSTED_CERTIFICATE.has(code)) {
        return {
          code,
          reason: `its TLS certificate is not trusted (${code}); for a private or self-signed certificate, set NODE_EXTRA_CA_CERTS to the file of the authority that signed it`,
          retry: false,
          final: true,
        };
      }
      return undefined;
  }
}

/** Each connection attempt's own limit: the connect timeout, between 2 and 10 seconds. */
export const connectAttemptTimeout = (connectTimeoutMs: number): number => Math.min(10_000, Math.max(2_000, connectTimeoutMs));

/**
 * The one-line error for a request that never reached `base`: `no response from
 * http://127.0.0.1:9 (endpoint ...): connection refused; gave up after 2 s (--connect-timeout)`.
 */
export function unreachedError(cause: Unreached, endpoint: Endpoint, base: string, request: string, connectTimeoutMs: number): ApiError {
  let origin = base;
  let host = base;
  try {
    ({ origin, hostname: host } = new URL(base));
  } catch {
    // keep the base as written
  }
  const named = /^https?:/i.test(endpoint.name) ? '' : ` (endpoint ${endpoint.name})`;
  const seconds = Math.round(connectTimeoutMs / 100) / 10;
  const what =
    cause.code === 'ENOTFOUND' || cause.code === 'EAI_AGAIN'
      ? `the host name ${host} ${cause.reason} (${cause.code})`
      : cause.code === 'CLOSED' || cause.final === true
        ? cause.reason
        : `${cause.reason}; gave up after ${seconds} s (--connect-timeout)`;
  return new ApiError({ status: 0, items: [{ code: 'NO_CONNECTION', message: what }], retryable: cause.retry, outcome: 'unsent', request, message: `from ${origin}${named}: ${what}` });
}

/**
 * Whether `body`, answered with `status` to a request of the advertising API, is not the API's:
 * every advertising answer is JSON, and every error of it carries `errors` (or a failed batch's
 * `operation_errors`). A 429 or a 5xx is left to the retries, which a proxy in front of the
 * service may answer in its own words.
 */
export function notTheApi(status: number, body: unknown): boolean {
  if (status < 400) return typeof body === 'string' && body !== '';
  if (status === 429 || RETRYABLE_STATUS.has(status)) return false;
  if (typeof body !== 'object' || body === null) return true;
  return !Array.isArray((body as { errors?: unknown }).errors) && !Array.isArray((body as { operation_errors?: unknown }).operation_errors);
}

/** `an HTML page`, `nothing`, `JSON that is not the API's`, `a text/plain body`. */
function answerShape(body: unknown, contentType: string | string[] | undefined): string {
  const type = (Array.isArray(contentType) ? contentType[0] : contentType)?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/html' || (typeof body === 'string' && /^\s*<(!doctype|html)/i.test(body))) return 'an HTML page';
  if (body === '') return 'nothing';
  if (typeof body === 'object') return "JSON that is not the API's";
  return type === '' ? 'a body that is not JSON' : `a ${type} body`;
}

/**
 * The one-line error for an answer from something that is not the advertising API (a web server,
 * a proxy's page): `no response from the advertising API: http://host:8080 answered 404 with an
 * HTML page, so it is not the API; check ADSCTL_ENDPOINT`. Its status is 0, like every answer the
 * service did not give, so that no caller takes a 404 of it for an object that is gone.
 */
export function notTheApiError(endpoint: Endpoint, base: string, request: string, response: Answer, hint: string | undefined): ApiError {
  let origin = base;
  try {
    ({ origin } = new URL(base));
  } catch {
    // keep the base as written
  }
  const named = /^https?:/i.test(endpoint.name) ? '' : ` (endpoint ${endpoint.name})`;
  const what = `${origin}${named} answered ${response.status} with ${answerShape(response.body, response.headers['content-type'])}, so it is not the API; ${hint ?? 'check the endpoint'}`;
  return new ApiError({ status: 0, items: [{ code: 'NOT_THE_API', message: what }], retryable: false, outcome: 'unsent', request, message: `from the advertising API: ${what}` });
}
