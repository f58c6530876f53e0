/**
 * The one HTTP client of adsctl. Every request is signed, throttled by the budgets the service
 * reports, bounded by `parallelism`, and retried only where retrying is safe: 429s after the
 * reset the headers give; 5xx and dropped connections of idempotent requests (GET, PUT, DELETE
 * and writes marked idempotent) with jittered exponential backoff honouring `retry-after`. A
 * create whose answer never came is reported as an `unknown` outcome so the caller can re-read
 * and adopt instead of creating twice. A request that never reached the service is told apart
 * (not-reached.ts): a host name that does not resolve fails at once, a refused or
 * unreachable connection is retried — any method, nothing was sent — only within the connect
 * timeout, and either ends in one `unsent` error naming the endpoint. Besides the advertising
 * endpoints it reaches the token endpoints and the media upload service, and sends form, JSON,
 * caller-serialised JSON and multipart bodies (request-body.ts); traces never show a body's content.
 */
import { emptyCounts, type RequestCounts } from './accounting.js';
import type { Endpoint } from './endpoints.js';
import { ApiError, errorItems } from './errors.js';
import { RateTracker, resetOf } from './rate-tracker.js';
import { encodeBody, type MultipartPart } from './request-body.js';
import { Semaphore } from './semaphore.js';
import { encodePairs, oauthHeader, type OAuthCredentials } from './signer.js';
import { bodyTrace, redactAuthorization, redactUrl } from './trace.js';
import { Agent, errors as undiciErrors, requestOn } from './undici-lean.js';
import { connectAttemptTimeout, notTheApi, notTheApiError, RETRYABLE_STATUS, unreachedCause, unreachedError } from './not-reached.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A parameter value: lists are sent comma-separated, null as an empty value (which unsets). */
export type ParamValue = string | number | boolean | null | ReadonlyArray<string | number>;
export type Params = Readonly<Record<string, ParamValue | undefined>>;

interface ApiRequest {
  method: Method;
  /** Path below the base URL, e.g. `/12/accounts/abc/campaigns`. */
  path: string;
  /** Which base URL of the endpoint: advertising (default), sandbox, token endpoints, or the media upload service. */
  base?: 'ads' | 'sandbox' | 'root' | 'upload';
  /** Query parameters for GET and DELETE, form body for POST and PUT. */
  params?: Params;
  /** A JSON body (batches); params then go in the query string. */
  json?: unknown;
  /**
   * A JSON body the caller serialised (users uploads of up to 5,000,000 bytes), sent as it is,
   * never parsed or serialised again; params then go in the query string.
   */
  jsonText?: string;
  /** A multipart/form-data body (media segments), unsigned; params then go in the query string, where they are signed. */
  multipart?: readonly MultipartPart[];
  /** What the trace says about a JSON or multipart body besides its size (`500 users`); its content is never traced. */
  bodyNote?: string;
  /**
   * The rate-limit budget the request draws from when it is not the usual one (a GET's own read
   * budget, else the write category's): the users endpoints (`audience_users:...`, 1,500 a
   * minute) and the upload service have their own.
   */
  budget?: string;
  /** Name of the operation (`campaigns.list`), for accounting and rate-limit budgets. */
  endpoint: string;
  /** The account the request is about, when it has one (account-level read budgets). */
  accountId?: string;
  /** A POST that does not create anything and may be repeated safely. */
  idempotent?: boolean;
  /**
   * The longest this request waits for a rate-limit budget, when shorter than the client's: a
   * lookup with a cached copy to fall back on does not wait 15 minutes for a fresh one.
   */
  maxWaitMs?: number;
  /**
   * A page after the first of a list: it waits for a free slot ahead of requests that start
   * something new, since each page of a list waits on the one before (its cursor) and a chain of
   * them is the longest wait of a refresh.
   */
  nextPage?: boolean;
  /** Extra OAuth protocol parameters (`oauth_callback`, `oauth_verifier`), signed and sent in the header. */
  oauth?: Readonly<Record<string, string>>;
  /** HTTP Basic credentials instead of an OAuth signature (the bearer token endpoint). */
  basic?: { user: string; password: string };
}

interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

export interface ClientOptions {
  endpoint: Endpoint;
  credentials: OAuthCredentials;
  /** Requests in flight at once (default 8). */
  parallelism?: number;
  /**
   * The run's budget of requests in flight, shared by the clients of every account it opens, so
   * many accounts together send no more than `--parallelism` at once. Taken only around the HTTP
   * exchange itself: a request waiting for its account's rate-limit window holds none of it.
   */
  shared?: Semaphore;
  /**
   * The run's rate-limit budgets, shared by the clients of every account it opens: the budgets
   * of one user (writes, global lookups) are spent by all its accounts together. Budgets are
   * kept apart by endpoint and credentials, so sharing never mixes two users' counts.
   */
  rates?: RateTracker;
  /** Longest total time one request may spend waiting for rate limits and backoff (default 15 min). */
  maxWaitMs?: number;
  /** Attempts against 5xx answers and dropped connections (default 8); 429s are bounded by `maxWaitMs` instead. */
  maxAttempts?: number;
  /** Time to wait for a response before giving up on an attempt (default 60 s). */
  timeoutMs?: number;
  /**
   * How long one request keeps retrying a connection that is refused or cannot be made (default:
   * the endpoint's `connectTimeoutMs`, else 10 s); 0 gives up after the first attempt.
   */
  connectTimeoutMs?: number;
  /** Receives one line per HTTP exchange, credentials redacted. */
  trace?: (line: string) => void;
  /**
   * Told when a request starts to wait at least `WAIT_NOTICE_MS` for a rate-limit budget: the
   * request, how long and until when, so that a long wait is never silent.
   */
  onWait?: (notice: WaitNotice) => void;
  /**
   * Aborted when the run may no longer write (its state lock was lost): a write not on the wire
   * yet is not sent — whatever it waited for — and fails `unsent`; reads go on.
   */
  writesStop?: AbortSignal;
  /**
   * Checks, just before each write goes out, that the run still holds its state lock (`Lock.verify`,
   * src/state/store.ts); a write it throws for is not sent and fails `unsent`. `writesStop` is
   * aborted by events, which a run stopped and resumed has not seen yet; this check is not.
   */
  verifyLease?: () => void | Promise<void>;
  /**
   * The run's clock (epoch ms): it dates OAuth signatures and reads rate-limit resets, which the
   * service states on its own clock (src/clock/clock.ts); sleep and randomness are replaceable in tests.
   */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /**
   * What an error adds when the run's settings, not the service, are the likely cause, in words
   * that name no secret: `endpoint` ends an answer that is not the API's (`check ADSCTL_ENDPOINT`),
   * `unauthorized` a 401 (where the credentials came from, and how to check them).
   */
  hints?: { endpoint?: string; unauthorized?: string };
}

/** A request waiting for a rate-limit budget: the request (`GET /12/...`), the wait, and when it ends (epoch ms). */
export interface WaitNotice {
  request: string;
  /** A write (its budget is the user's), else a read. */
  write: boolean;
  /** A read outside every account (a global lookup). */
  global: boolean;
  ms: number;
  until: number;
}

/** Waits for a rate limit at least this long are told (`ClientOptions.onWait`). */
const WAIT_NOTICE_MS = 5_000;

const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 30_000;

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function flatten(params: Params | undefined): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v === undefined) continue;
    out.push([k, v === null ? '' : Array.isArray(v) ? v.join(',') : String(v)]);
  }
  return out;
}

/** How long one request keeps retrying a refused or unreachable connection unless told otherwise. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

const isNetworkError = (error: unknown): boolean =>
  error instanceof undiciErrors.UndiciError || (error instanceof Error && /ECONNRESET|EPIPE|ECONNREFUSED|socket|other side closed/i.test(`${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}`));

export class ApiClient {
  readonly endpoint: Endpoint;
  readonly counts: RequestCounts = emptyCounts();
  private readonly credentials: OAuthCredentials;
  private readonly agent: InstanceType<typeof Agent>;
  private readonly slots: Semaphore;
  private readonly shared: Semaphore | undefined;
  private readonly tracker: RateTracker;
  /** Who spends the budgets this client draws from: its endpoint and its user. */
  private readonly spender: string;
  private readonly options: Required<Pick<ClientOptions, 'maxWaitMs' | 'maxAttempts' | 'timeoutMs' | 'connectTimeoutMs' | 'now' | 'sleep' | 'random'>> & Pick<ClientOptions, 'trace'>;
  private readonly onWait: ((notice: WaitNotice) => void) | undefined;
  private readonly writesStop: AbortSignal | undefined;
  private readonly verifyLease: (() => void | Promise<void>) | undefined;
  private readonly hints: { endpoint?: string; unauthorized?: string };

  constructor(options: ClientOptions) {
    this.endpoint = options.endpoint;
    this.credentials = options.credentials;
    const parallelism = options.parallelism ?? 8;
    this.slots = new Semaphore(parallelism);
    this.shared = options.shared;
    this.tracker = options.rates ?? new RateTracker();
    this.onWait = options.onWait;
    this.writesStop = options.writesStop;
    this.verifyLease = options.verifyLease;
    this.hints = options.hints ?? {};
    this.spender = `${options.endpoint.adsBaseUrl} ${options.credentials.consumerKey} ${options.credentials.token ?? ''}`;
    const connectTimeoutMs = options.connectTimeoutMs ?? options.endpoint.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.agent = new Agent({ connections: parallelism, keepAliveTimeout: 30_000, pipelining: 1, connect: { timeout: connectAttemptTimeout(connectTimeoutMs) } });
    this.options = {
      maxWaitMs: options.maxWaitMs ?? 15 * 60_000,
      maxAttempts: options.maxAttempts ?? 8,
      timeoutMs: options.timeoutMs ?? 60_000,
      connectTimeoutMs,
      now: options.now ?? Date.now,
      sleep: options.sleep ?? defaultSleep,
      random: options.random ?? Math.random,
      trace: options.trace,
    };
  }

  /** Waits `ms` as this client waits between attempts (its `sleep`): for work that polls through it, such as an upload's processing. */
  wait(ms: number): Promise<void> {
    return this.options.sleep(ms);
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  private budgetKey(req: ApiRequest): string {
    if (req.method === 'GET') return `${this.spender} ${req.budget ?? `read:${req.endpoint}:${req.accountId ?? ''}`}`;
    return `${this.spender} ${req.budget ?? 'write'}`;
  }

  /** Sends one logical request, with every retry it needs; throws `ApiError` on failure. */
  async send<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>> {
    const safe = req.method !== 'POST' || req.idempotent === true;
    const key = this.budgetKey(req);
    const label = `${req.method} ${req.path}`;
    if (req.method === 'GET') this.counts.reads++;
    else this.counts.writes++;
    this.counts.byEndpoint[req.endpoint] = (this.counts.byEndpoint[req.endpoint] ?? 0) + 1;
    let waited = 0;
    const maxWaitMs = Math.min(req.maxWaitMs ?? this.options.maxWaitMs, this.options.maxWaitMs);
    const wait = async (ms: number, rateLimited = false): Promise<boolean> => {
      if (waited + ms > maxWaitMs) return false;
      waited += ms;
      this.counts.waitedMs += ms;
      if (rateLimited && ms >= WAIT_NOTICE_MS) {
        this.onWait?.({ request: label, write: req.method !== 'GET', global: req.method === 'GET' && req.accountId === undefined, ms, until: this.options.now() + ms });
      }
      await this.options.sleep(ms);
      return true;
    };

    let failures = 0;
    let connectFailures = 0;
    let unreachedSince: number | undefined;
    for (let attempt = 1; ; attempt++) {
      const throttle = this.tracker.delayBefore(key, this.options.now());
      if (throttle > 0 && !(await wait(throttle, true))) {
        throw new ApiError({ status: 429, items: [{ code: 'TOO_MANY_REQUESTS', message: `rate limit budget exhausted; waiting ${Math.ceil(throttle / 1000)} s exceeds the wait limit` }], retryable: true, outcome: 'unsent', request: label });
      }
      let response: ApiResponse<unknown>;
      try {
        const answered = await this.exchange(req, key, attempt > 1);
        if (typeof answered === 'number') {
          // the budget ran out while waiting for a slot: wait for it without holding one
          if (await wait(answered, true)) {
            attempt--;
            continue;
          }
          throw new ApiError({ status: 429, items: [{ code: 'TOO_MANY_REQUESTS', message: `rate limit budget exhausted; waiting ${Math.ceil(answered / 1000)} s exceeds the wait limit` }], retryable: true, outcome: 'unsent', request: label });
        }
        response = answered;
      } catch (error) {
        const cause = unreachedCause(error);
        if (cause !== undefined) {
          unreachedSince ??= this.options.now();
          const remaining = unreachedSince + this.options.connectTimeoutMs - this.options.now();
          if (cause.retry && remaining > 0 && (await wait(Math.min(remaining, this.backoff(++connectFailures, undefined))))) continue;
          throw unreachedError(cause, this.endpoint, this.baseFor(req), label, this.options.connectTimeoutMs);
        }
        if (!isNetworkError(error)) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        if (!safe) {
          throw new ApiError({ status: 0, items: [{ code: 'NO_RESPONSE', message: `no response (${reason}); the write may or may not have been applied` }], retryable: false, outcome: 'unknown', request: label });
        }
        failures++;
        if (failures < this.options.maxAttempts && (await wait(this.backoff(failures, undefined)))) continue;
        throw new ApiError({ status: 0, items: [{ code: 'NO_RESPONSE', message: `no response after ${attempt} attempts (${reason})` }], retryable: true, outcome: 'unsent', request: label });
      }

      const advertising = req.base === undefined || req.base === 'ads' || req.base === 'sandbox';
      if (advertising && notTheApi(response.status, response.body)) throw notTheApiError(this.endpoint, this.baseFor(req), label, response, this.hints.endpoint);
      if (response.status < 400) return response as ApiResponse<T>;
      const items = errorItems(response.body, response.status);
      if (response.status === 429) {
        this.counts.rateLimited++;
        const reset = resetOf(response.headers);
        if (reset !== undefined) this.tracker.exhaust(key, reset);
        const delay = reset === undefined ? this.backoff(failures + 1, undefined) : Math.max(reset * 1000 - this.options.now(), 0) + 250 + Math.floor(this.options.random() * 250);
        if (await wait(delay, true)) continue;
        throw new ApiError({ status: 429, items, retryable: true, outcome: 'rejected', request: label, message: `${items[0]?.message ?? 'rate limited'}; the wait limit of ${Math.round(this.options.maxWaitMs / 1000)} s ran out` });
      }
      if (RETRYABLE_STATUS.has(response.status)) {
        if (!safe) {
          throw new ApiError({ status: response.status, items, retryable: false, outcome: 'unknown', request: label });
        }
        failures++;
        if (failures < this.options.maxAttempts && (await wait(this.backoff(failures, response.headers['retry-after'])))) continue;
        throw new ApiError({ status: response.status, items, retryable: true, outcome: 'rejected', request: label });
      }
      const unauthorized = response.status === 401 ? this.hints.unauthorized : undefined;
      const hint = unauthorized === undefined ? {} : { message: `${items.map((i) => `${i.code}: ${i.message}`).join('; ')}; ${unauthorized}` };
      throw new ApiError({ status: response.status, items, retryable: false, outcome: 'rejected', request: label, body: response.body, ...hint });
    }
  }

  /** Full-jitter exponential backoff, or the server's `retry-after` when it gives one. */
  private backoff(attempt: number, retryAfter: string | string[] | undefined): number {
    const ra = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
    if (ra !== undefined && /^\d+$/.test(ra)) return Number(ra) * 1000 + Math.floor(this.options.random() * 250);
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
    return Math.floor(ceiling / 2 + this.options.random() * (ceiling / 2));
  }

  private baseFor(req: ApiRequest): string {
    switch (req.base) {
      case 'root':
        return this.endpoint.baseUrl;
      case 'sandbox':
        return this.endpoint.adsSandboxBaseUrl;
      case 'upload':
        return this.endpoint.uploadBaseUrl;
      default:
        return this.endpoint.adsBaseUrl;
    }
  }

  /**
   * One HTTP exchange, or — when the budget of `key` no longer covers one more request once
   * slots are free — the milliseconds to wait before trying again, with nothing sent. The check
   * and the count of the request in flight happen with no wait between them, so requests that
   * waited together for a window go out only as far as the window reaches.
   */
  private async exchange(req: ApiRequest, key: string, retry: boolean): Promise<ApiResponse<unknown> | number> {
    const pairs = flatten(req.params);
    const encoded = encodeBody(req, pairs);
    const url = `${this.baseFor(req)}${req.path}`;
    const query = encoded.paramsInQuery && pairs.length > 0 ? `?${encodePairs(pairs)}` : '';
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'adsctl' };
    const body = encoded.body;
    if (encoded.contentType !== undefined) headers['content-type'] = encoded.contentType;
    const traced = `${req.method} ${redactUrl(`${url}${query}`)}`;
    const bodyNote = bodyTrace(encoded, req.bodyNote);
    headers['authorization'] =
      req.basic === undefined
        ? oauthHeader(this.credentials, { method: req.method, url, params: pairs, timestamp: Math.floor(this.options.now() / 1000), ...(req.oauth === undefined ? {} : { extra: req.oauth }) })
        : `Basic ${Buffer.from(`${encodeURIComponent(req.basic.user)}:${encodeURIComponent(req.basic.password)}`).toString('base64')}`;

    await this.slots.acquire(req.nextPage === true);
    await this.shared?.acquire(req.nextPage === true);
    const throttle = this.tracker.delayBefore(key, this.options.now());
    if (throttle > 0) {
      this.shared?.release();
      this.slots.release();
      return throttle;
    }
    // checked last, with no wait before the request goes out (a local lock is read at once; a
    // PostgreSQL session answers one statement first)
    if (req.method !== 'GET') {
      let lost: string | undefined;
      try {
        const pending = this.verifyLease?.();
        if (pending !== undefined) await pending;
      } catch (error) {
        lost = error instanceof Error ? error.message : String(error);
      }
      if (lost !== undefined || this.writesStop?.aborted === true) {
        this.shared?.release();
        this.slots.release();
        throw new ApiError({ status: 0, items: [{ code: 'NOT_SENT', message: `not sent: this run may no longer write (its state lock was lost${lost === undefined ? '' : `: ${lost}`})` }], retryable: false, outcome: 'unsent', request: `${req.method} ${req.path}` });
      }
    }
    if (retry) this.counts.retries++;
    this.tracker.start(key);
    const started = this.options.now();
    this.counts.attempts++;
    try {
      const res = await requestOn(this.agent, new URL(`${url}${query}`), {
        method: req.method,
        headers,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        ...(body === undefined ? {} : { body }),
      });
      const text = await res.body.text();
      this.tracker.observe(key, res.headers);
      let parsed: unknown = text;
      if (text !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      this.options.trace?.(`${traced} → ${res.statusCode} ${this.options.now() - started}ms ${redactAuthorization(headers['authorization'])}${rateNote(res.headers)}${bodyNote}`);
      return { status: res.statusCode, body: parsed, headers: res.headers };
    } catch (error) {
      this.options.trace?.(`${traced} → failed after ${this.options.now() - started}ms: ${error instanceof Error ? error.message : String(error)}${bodyNote}`);
      throw error;
    } finally {
      this.tracker.finish(key);
      this.shared?.release();
      this.slots.release();
    }
  }
}

function rateNote(headers: Record<string, string | string[] | undefined>): string {
  const remaining = headers['x-account-rate-limit-remaining'] ?? headers['x-rate-limit-remaining'];
  const limit = headers['x-account-rate-limit-limit'] ?? headers['x-rate-limit-limit'];
  return remaining === undefined ? '' : ` [budget ${String(remaining)}/${String(limit)}]`;
}
