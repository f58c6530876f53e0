/**
 * A small test client for the emulator: signs every request with the independent test signer and
 * sends it over real HTTP. Parameters go in the query string, in a form body, or as JSON.
 */
import { request } from 'undici';
import { startEmulator, type EmulatorOptions, type RunningEmulator, type StartupInfo } from '../../src/emulator/emulator.js';
import type { Clock } from '../../src/clock/clock.js';
import { authorizationHeader, rfc3986, type Credentials } from './signer.js';
import { testClock } from './test-clock.js';

export interface Reply<T = any> {
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
}

export type Params = Record<string, string | number | boolean | Array<string | number>>;

export interface SendOptions {
  /** Where the parameters go (default: query). */
  as?: 'query' | 'form';
  json?: unknown;
  /** Sign with these credentials instead of the client's. */
  creds?: Credentials | null;
  bearer?: string;
  headers?: Record<string, string>;
  /** Add oauth_body_hash for a JSON body. */
  bodyHash?: boolean;
  base?: 'ads' | 'sandbox' | 'root';
  /** Extra protocol parameters for the Authorization header (oauth_callback, oauth_verifier). */
  oauth?: Record<string, string>;
  /** Sign with this nonce instead of a random one. */
  nonce?: string;
  /** Sign with this oauth_timestamp (epoch seconds) instead of the current time. */
  timestamp?: number;
}

const flat = (params: Params): Array<[string, string]> =>
  Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]);

export const encodePairs = (pairs: Array<[string, string]>): string => pairs.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&');

export class TestClient {
  readonly info: StartupInfo;
  creds: Credentials;

  /**
   * `clock`: the time its signatures carry, for an emulator at a clock of its own (a manual clock
   * far from the test instant); the test clock when absent.
   */
  constructor(info: StartupInfo, creds?: Credentials, readonly clock?: Clock) {
    this.info = info;
    this.creds = creds ?? {
      consumerKey: info.consumer_key,
      consumerSecret: info.consumer_secret,
      token: info.access_token,
      tokenSecret: info.access_token_secret,
    };
  }

  /** The same client signing as another user. */
  as(creds: Credentials): TestClient {
    return new TestClient(this.info, creds, this.clock);
  }

  url(path: string, base: SendOptions['base'] = 'ads'): string {
    const root = base === 'sandbox' ? this.info.ads_sandbox_base_url : base === 'root' ? this.info.base_url : this.info.ads_base_url;
    return `${root}${path}`;
  }

  async send<T = any>(method: string, path: string, params: Params = {}, opts: SendOptions = {}): Promise<Reply<T>> {
    const pairs = flat(params);
    const inForm = opts.as === 'form';
    let url = this.url(path, opts.base);
    if (!inForm && pairs.length > 0) url += `?${encodePairs(pairs)}`;
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body: string | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    } else if (inForm) {
      body = encodePairs(pairs);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const creds = opts.creds === undefined ? this.creds : opts.creds;
    if (opts.bearer !== undefined) headers['authorization'] = `Bearer ${opts.bearer}`;
    else if (creds !== null && headers['authorization'] === undefined) {
      headers['authorization'] = authorizationHeader(creds, {
        method,
        url,
        ...(inForm ? { form: pairs } : {}),
        ...(opts.bodyHash === true && body !== undefined ? { bodyForHash: Buffer.from(body) } : {}),
        ...(opts.oauth === undefined ? {} : { extraOAuth: opts.oauth }),
        ...(opts.nonce === undefined ? {} : { nonce: opts.nonce }),
        ...(opts.timestamp === undefined ? (this.clock === undefined ? {} : { timestamp: Math.floor(this.clock.now().getTime() / 1000) }) : { timestamp: opts.timestamp }),
      });
    }
    const res = await request(url, { method: method as 'GET', headers, ...(body === undefined ? {} : { body }) });
    const text = await res.body.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.statusCode, headers: res.headers as Record<string, string>, body: parsed as T, text };
  }

  get<T = any>(path: string, params?: Params, opts?: SendOptions): Promise<Reply<T>> {
    return this.send('GET', path, params, opts);
  }
  post<T = any>(path: string, params?: Params, opts?: SendOptions): Promise<Reply<T>> {
    return this.send('POST', path, params, opts);
  }
  put<T = any>(path: string, params?: Params, opts?: SendOptions): Promise<Reply<T>> {
    return this.send('PUT', path, params, opts);
  }
  delete<T = any>(path: string, params?: Params, opts?: SendOptions): Promise<Reply<T>> {
    return this.send('DELETE', path, params, opts);
  }
}

/** Starts an emulator on port 0 and a client for its seeded owner. */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<{ emulator: RunningEmulator; client: TestClient; account: string }> {
  const emulator = await startEmulator({ port: 0, log: () => {}, clock: testClock, ...options });
  return { emulator, client: new TestClient(emulator.info), account: emulator.info.account_id };
}
