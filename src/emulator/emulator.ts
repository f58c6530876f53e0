/**
 * Starting and stopping the emulator: builds the store (seeded, or loaded from `--data`), the
 * pipeline and the HTTP server, and reports the start-up contract of docs/architecture.md.
 */
import type { Server } from 'node:http';
import { systemClock, type Clock } from './clock.js';
import { handleControl } from './control.js';
import { FaultInjector, parseFaultSpec, type FaultSpec } from './faults.js';
import { NonceCache } from './auth/nonces.js';
import { handleTokenRequest } from './auth/token-endpoints.js';
import { TIMESTAMP_WINDOW_SECONDS } from './auth/verify.js';
import { RateLimiter } from './rate-limits.js';
import { Refusals } from './refusals.js';
import { ADS_PREFIX, SANDBOX_PREFIX, UPLOAD_PREFIX } from './request.js';
import { ROUTES } from './routes.js';
import { createEmulatorServer, listen, newStats, type RequestStats } from './server.js';
import { Journal } from './store/journal.js';
import { SEED, seedStore, type SeedInfo } from './store/seed.js';
import { Store } from './store/store.js';
import { UploadSegments } from './upload/segments.js';
import { handleUploadRequest } from './upload/upload-service.js';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  /** Keep state in this file (snapshot plus journal) across restarts. */
  dataFile?: string;
  latencyMs?: number;
  /** Fault spec (see faults.ts), e.g. `429=5%,503=5%,reset=2%`. */
  faults?: string;
  seed?: number;
  /** Multiplies every rate limit; 0 turns rate limiting off. Default 1. */
  rateLimitScale?: number;
  /** Replaces every rate limit window, in seconds. */
  rateLimitWindowSeconds?: number;
  log?: (line: string) => void;
  clock?: Clock;
}

/** The first line `adsctl emulator` prints (docs/architecture.md): the base URLs and the seeded identities. */
export interface StartupInfo extends SeedInfo {
  base_url: string;
  ads_base_url: string;
  ads_sandbox_base_url: string;
  /** The media upload service; its endpoint is this + `/1.1/media/upload.json`. */
  upload_base_url: string;
}

export interface RunningEmulator {
  info: StartupInfo;
  port: number;
  store: Store;
  stats: RequestStats;
  /** Stops accepting requests, closes connections and writes the data file. */
  close(): Promise<void>;
}

/** Thrown for options that make no sense (a bad fault spec). */
export class EmulatorOptionError extends Error {}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const clock = options.clock ?? systemClock;
  let spec: FaultSpec = { rates: {}, slowMs: 2000 };
  if (options.faults !== undefined && options.faults !== '') {
    const parsed = parseFaultSpec(options.faults);
    if (typeof parsed === 'string') throw new EmulatorOptionError(`--faults: ${parsed}`);
    spec = parsed;
  }

  const store = new Store();
  let journal: Journal | undefined;
  if (options.dataFile !== undefined) {
    const opened = Journal.open(options.dataFile, store);
    journal = opened.journal;
    if (!opened.loaded) seedStore(store);
    log(`${opened.loaded ? 'loaded state from' : 'seeded new state in'} ${options.dataFile}`);
  } else seedStore(store);

  const limiter = new RateLimiter(
    options.rateLimitWindowSeconds === undefined
      ? { scale: options.rateLimitScale ?? 1 }
      : { scale: options.rateLimitScale ?? 1, windowSeconds: options.rateLimitWindowSeconds },
  );
  const faults = new FaultInjector(spec, options.seed ?? 1);
  const nonces = new NonceCache(TIMESTAMP_WINDOW_SECONDS);
  const stats = newStats();
  const refusals = new Refusals();
  const segments = new UploadSegments();
  const server: Server = createEmulatorServer({
    store,
    clock,
    routes: ROUTES,
    limiter,
    faults,
    refusals,
    latencyMs: options.latencyMs ?? 0,
    nonces,
    log,
    stats,
    token: (req) => handleTokenRequest({ store, clock, nonces, limiter, log }, req),
    control: (req) => handleControl({ stats, faults, limiter, refusals, store, clock }, req),
    upload: (req) => handleUploadRequest({ store, clock, nonces, segments, log }, req),
  });
  const host = options.host ?? '127.0.0.1';
  const port = await listen(server, options.port ?? 0, host);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const info: StartupInfo = {
    base_url: origin,
    ads_base_url: `${origin}${ADS_PREFIX}`,
    ads_sandbox_base_url: `${origin}${SANDBOX_PREFIX}`,
    upload_base_url: `${origin}${UPLOAD_PREFIX}`,
    ...SEED,
  };
  log(`emulator listening on ${origin} (ads ${info.ads_base_url}, sandbox ${info.ads_sandbox_base_url}, upload ${info.upload_base_url})`);

  let closed = false;
  return {
    info,
    port,
    store,
    stats,
    close: async () => {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      journal?.close();
    },
  };
}
