/**
 * The HTTP pipeline of the emulator: parse → control or token endpoints → injected faults and
 * latency → the upload service, or authentication → routing → account access and permissions →
 * rate limits → refusals a test asked for → handler in a store transaction → JSON. Every
 * advertising error leaves as the service's error body.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from './clock.js';
import type { ApiContext, RouteDef } from './context.js';
import { authenticate } from './authenticate.js';
import { charges } from './rate-charges.js';
import { WireError, accountNotFound, actionNotAllowed, invalidParameter, notFound, tooManyRequests } from './errors.js';
import type { FaultInjector } from './faults.js';
import { ParamReader } from './params.js';
import { json, type RawResponse } from './raw-response.js';
import type { RateLimiter } from './rate-limits.js';
import type { Refusals } from './refusals.js';
import { classify, decodeForm, paramObject, type ParsedRequest, type Surface } from './request.js';
import { parseJsonBody } from './json-body.js';
import { Router } from './router.js';
import type { Store } from './store/store.js';
import type { NonceCache } from './auth/nonces.js';
import { ACCESS_PERMISSIONS } from './permissions.js';

const MAX_BODY_BYTES = 6_000_000;
/** An upload segment of 5 MB sent as base64 `media_data`, with room for the rest of the body. */
const MAX_UPLOAD_BODY_BYTES = 8_000_000;

/** What the pipeline needs besides the request. */
interface PipelineDeps {
  store: Store;
  clock: Clock;
  routes: readonly RouteDef[];
  limiter: RateLimiter;
  faults: FaultInjector;
  /** Requests tests asked to be refused (`/_emulator/refusals`), checked just before the handler. */
  refusals: Refusals;
  latencyMs: number;
  nonces: NonceCache;
  log: (line: string) => void;
  /** Token endpoints (`/oauth/*`, `/oauth2/*`, `/1.1/oauth/*`). */
  token: (req: ParsedRequest) => RawResponse | Promise<RawResponse>;
  /** Emulator control endpoints (`/_emulator/*`). */
  control: (req: ParsedRequest) => RawResponse | Promise<RawResponse>;
  /** The media upload service (`/upload/*`); throws a `WireError` for error answers. */
  upload: (req: ParsedRequest) => RawResponse;
  stats: RequestStats;
}

/** Counts of requests served, by surface and method, for tests and benchmarks. */
export interface RequestStats {
  total: number;
  /** Requests being served now, and the most there ever were at once. */
  inFlight: number;
  maxInFlight: number;
  bySurface: Record<string, number>;
  byMethod: Record<string, number>;
  byRoute: Record<string, number>;
  /** Handler runs that succeeded, by route: what the service actually did. */
  servedByRoute: Record<string, number>;
  faults: Record<string, number>;
}

export function newStats(): RequestStats {
  return { total: 0, inFlight: 0, maxInFlight: 0, bySurface: {}, byMethod: {}, byRoute: {}, servedByRoute: {}, faults: {} };
}

const bump = (m: Record<string, number>, k: string): void => {
  m[k] = (m[k] ?? 0) + 1;
};

/** Creates the node:http server running the pipeline. */
export function createEmulatorServer(deps: PipelineDeps): Server {
  const router = new Router(deps.routes);
  const server = createServer((req, res) => {
    deps.stats.inFlight++;
    deps.stats.maxInFlight = Math.max(deps.stats.maxInFlight, deps.stats.inFlight);
    res.once('close', () => {
      deps.stats.inFlight--;
    });
    void serve(deps, router, req, res).catch((error: unknown) => {
      deps.log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) send(res, json(500, { errors: [{ code: 'INTERNAL_ERROR', message: 'Internal error' }], request: { params: {} } }));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

/** Bytes past the body limit the server still reads and discards to keep the connection usable. */
const MAX_DRAIN_BYTES = 64_000_000;

/**
 * The body, or `over` when it passed `limit`. An oversized body is read to its end and discarded
 * (up to `MAX_DRAIN_BYTES` more), so the 413 answer leaves the keep-alive connection ready for the
 * next request instead of resetting it; `drained` is false when the client sent even more, and the
 * connection must then be closed after the answer.
 */
function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer } | { over: true; drained: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > limit + MAX_DRAIN_BYTES) {
        req.off('data', onData);
        req.pause();
        resolve({ over: true, drained: false });
      }
    };
    req.on('data', onData);
    req.once('end', () => resolve(size > limit ? { over: true, drained: true } : { body: Buffer.concat(chunks) }));
    req.once('error', reject);
  });
}

/** A 400 for a request that cannot be read (bad percent-encoding, bad JSON), in the surface's dialect. */
function unreadable(surface: Surface, message: string): RawResponse {
  if (surface === 'control') return json(400, { error: message });
  if (surface === 'token' || surface === 'upload') return json(400, { errors: [{ code: 44, message }] });
  return json(400, { errors: [{ code: 'INVALID_PARAMETER', message }], request: { params: {} } });
}

function send(res: ServerResponse, r: RawResponse): void {
  res.writeHead(r.status, { 'content-type': r.contentType, ...r.headers });
  res.end(r.body);
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function serve(deps: PipelineDeps, router: Router, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const target = classify(req.url ?? '/');
  const limit = target.surface === 'upload' ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES;
  const read = await readBody(req, limit);
  if ('over' in read) {
    const tooLarge = json(413, { errors: [{ code: 'INVALID_PARAMETER', message: `Request body exceeds ${limit} bytes` }], request: { params: {} } });
    if (!read.drained) tooLarge.headers = { ...tooLarge.headers, connection: 'close' };
    send(res, tooLarge);
    return;
  }
  const body = read.body;
  if (target.malformed !== undefined) {
    send(res, unreadable(target.surface, target.malformed));
    return;
  }
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  let parsed: ParsedRequest;
  try {
    const isForm = contentType === 'application/x-www-form-urlencoded';
    parsed = {
      method: (req.method ?? 'GET').toUpperCase(),
      scheme: 'http',
      host: req.headers.host ?? 'localhost',
      fullPath: target.fullPath,
      surface: target.surface,
      path: target.path,
      query: target.query,
      form: isForm ? decodeForm(body.toString('utf8')) : [],
      json: undefined,
      contentType,
      body,
      headers: req.headers,
    };
    if (contentType === 'application/json' && body.length > 0) {
      const parsedBody = parseJsonBody(body.toString('utf8'));
      if (!parsedBody.ok) throw invalidParameter('body', parsedBody.message);
      parsed.json = parsedBody.value;
    }
  } catch (error) {
    if (error instanceof WireError) {
      const first = error.items[0];
      send(res, target.surface === 'ads' || target.surface === 'sandbox' ? errorResponse(error, {}) : unreadable(target.surface, first?.message ?? 'Bad request'));
      return;
    }
    throw error;
  }

  deps.stats.total++;
  bump(deps.stats.bySurface, parsed.surface);
  bump(deps.stats.byMethod, parsed.method);

  if (parsed.surface === 'control') {
    send(res, await deps.control(parsed));
    return;
  }
  if (parsed.surface === 'token') {
    try {
      send(res, await deps.token(parsed));
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      send(res, json(error.status, error.body ?? { errors: error.items }, error.headers));
    }
    return;
  }

  const fault = deps.faults.draw();
  if (fault !== undefined) bump(deps.stats.faults, fault);
  if (fault === 'reset') {
    req.socket.destroy();
    return;
  }
  if (fault === '429' || fault === '500' || fault === '503') {
    const nowS = Math.floor(deps.clock.now().getTime() / 1000);
    const r =
      fault === '429'
        ? errorResponse(tooManyRequests({ 'x-rate-limit-limit': '1', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(nowS + 1) }), {})
        : fault === '500'
          ? errorResponse(new WireError(500, [{ code: 'INTERNAL_ERROR', message: 'Internal error' }]), {})
          : errorResponse(new WireError(503, [{ code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' }], { 'retry-after': '1' }), {});
    send(res, r);
    return;
  }
  if (fault === 'slow') await delay(deps.faults.slowMs);
  if (deps.latencyMs > 0) await delay(deps.latencyMs);

  const response = parsed.surface === 'upload' ? handleUpload(deps, parsed) : handleAds(deps, router, parsed);
  if (fault === 'lost') {
    req.socket.destroy();
    return;
  }
  send(res, response);
}

function handleUpload(deps: PipelineDeps, req: ParsedRequest): RawResponse {
  try {
    return deps.upload(req);
  } catch (error) {
    if (!(error instanceof WireError)) throw error;
    return json(error.status, { errors: error.items }, error.headers);
  }
}

function errorResponse(error: WireError, params: Record<string, unknown>): RawResponse {
  return json(error.status, error.body ?? { errors: error.items, request: { params } }, error.headers);
}

function handleAds(deps: PipelineDeps, router: Router, req: ParsedRequest): RawResponse {
  let echo: Record<string, unknown> = {};
  let rateHeaders: Record<string, string> = {};
  try {
    const principal = authenticate(req, deps.store, deps.nonces, deps.clock, deps.log);
    const { route, pathParams } = router.match(req.method, req.path, req.surface === 'sandbox');
    echo = { ...pathParams };
    bump(deps.stats.byRoute, `${route.method} ${route.path}`);
    if (principal.kind === 'user' && principal.readOnly && route.family === 'write') {
      throw new WireError(403, [{ code: 'READONLY_CLIENT_APPLICATION', message: 'This access token has read-only access and cannot make changes' }]);
    }
    if (principal.kind === 'app' && route.appOnly !== true) {
      throw new WireError(401, [{ code: 'UNAUTHORIZED_ACCESS', message: 'This request requires a user context' }]);
    }

    const accountId = pathParams['account_id'];
    let account;
    let permissions: readonly string[] = [];
    if (accountId !== undefined && principal.kind === 'user') {
      account = deps.store.get('account', accountId);
      const users = account?.ext['users'] as Record<string, string[]> | undefined;
      const granted = users?.[principal.userId];
      if (account === undefined || granted === undefined) throw accountNotFound(accountId);
      // a deleted (sandbox) account keeps only its own lookup with with_deleted=true
      if (account.rec['deleted'] === true && route.path !== '/12/accounts/:account_id') throw notFound('Account', accountId, undefined, 'account_id');
      permissions = granted;
      const needed = ACCESS_PERMISSIONS[route.access];
      if (needed !== undefined && !needed.some((p) => granted.includes(p))) {
        throw actionNotAllowed(`User ${principal.userId} lacks permission for ${route.method} ${route.path}; needs one of ${needed.join(', ')}`);
      }
    }

    const raw = paramObject(req);
    const nowS = Math.floor(deps.clock.now().getTime() / 1000);
    const decision = deps.limiter.charge(charges(route, principal, accountId, raw['with_total_count'] === 'true'), nowS);
    rateHeaders = decision.headers;
    if (!decision.allowed) throw tooManyRequests({});

    if (route.jsonBody === true && req.contentType !== 'application/json') {
      throw new WireError(400, [{ code: 'INVALID_PARAMETER', message: 'Content-Type must be application/json', parameter: 'content-type' }]);
    }

    const ctx: ApiContext = {
      req,
      params: new ParamReader(raw, pathParams),
      pathParams,
      json: req.json,
      store: deps.store,
      clock: deps.clock,
      principal,
      account,
      permissions,
      sandbox: req.surface === 'sandbox',
    };
    const refusal = deps.refusals.refuse({ method: req.method, path: req.path, params: raw, json: req.json }, accountId);
    if (refusal !== undefined) throw refusal;
    const result = deps.store.transaction(() => route.handler(ctx));
    bump(deps.stats.servedByRoute, `${route.method} ${route.path}`);
    return json(result.status ?? 200, result.body, { ...rateHeaders, 'x-current-api-version': '12' });
  } catch (error) {
    if (!(error instanceof WireError)) throw error;
    return errorResponse(new WireError(error.status, error.items, { ...rateHeaders, ...error.headers, 'x-current-api-version': '12' }, error.body), echo);
  }
}

/** Starts listening; resolves with the bound port. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
