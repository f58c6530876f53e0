/**
 * Control endpoints under `/_emulator/` for tests and benchmarks, outside the API: request
 * counts, fault injection at run time, refusals of chosen requests (refusals.ts), forgetting
 * rate limit windows, and the emulator's time (`GET /clock`: the instant its clock reads). They are not part of the service and need no signature; the emulator
 * listens on loopback by default.
 */
import { formatTime, type Clock } from './clock.js';
import type { FaultInjector } from './faults.js';
import { parseFaultSpec } from './faults.js';
import { json, type RawResponse } from './raw-response.js';
import type { RateLimiter } from './rate-limits.js';
import type { Refusals } from './refusals.js';
import type { ParsedRequest } from './request.js';
import { newStats, type RequestStats } from './server.js';
import { handleAudienceControl } from './audience-control.js';
import type { Store } from './store/store.js';

interface ControlDeps {
  stats: RequestStats;
  faults: FaultInjector;
  limiter: RateLimiter;
  refusals: Refusals;
  /** The store, for the audience control endpoints (audience-control.ts). */
  store?: Store;
  /** The emulator's clock, which `GET /clock` reads. */
  clock: Clock;
}

export function handleControl(deps: ControlDeps, req: ParsedRequest): RawResponse {
  const route = `${req.method} ${req.path}`;
  switch (route) {
    case 'GET /stats':
      return json(200, deps.stats);
    case 'POST /stats/reset': {
      Object.assign(deps.stats, newStats(), { inFlight: deps.stats.inFlight });
      return json(200, deps.stats);
    }
    case 'POST /faults': {
      const body = (req.json ?? {}) as { faults?: unknown; seed?: unknown; count?: unknown };
      const spec = parseFaultSpec(typeof body.faults === 'string' ? body.faults : '');
      if (typeof spec === 'string') return json(400, { error: spec });
      // `count`: the faults apply to that many advertising requests, then stop
      deps.faults.configure(spec, typeof body.seed === 'number' ? body.seed : 1, typeof body.count === 'number' ? body.count : undefined);
      return json(200, { faults: spec });
    }
    case 'POST /refusals': {
      const rule = deps.refusals.add(req.json);
      return typeof rule === 'string' ? json(400, { error: rule }) : json(200, rule);
    }
    case 'GET /refusals':
      return json(200, { refusals: deps.refusals.list() });
    case 'DELETE /refusals':
      return json(200, { cleared: deps.refusals.clear() });
    case 'GET /clock':
      return json(200, { now: formatTime(deps.clock.now()) });
    case 'POST /rate-limits/reset':
      deps.limiter.reset();
      return json(200, { reset: true });
    default:
      return (deps.store === undefined ? undefined : handleAudienceControl(deps.store, req)) ?? json(404, { error: `no control endpoint ${route}` });
  }
}
