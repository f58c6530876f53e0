/**
 * Where a command waits on the network, measured in the process that runs it (measure-cli.ts)
 * from undici's diagnostics channels, so adsctl's own code carries nothing for it: every HTTP
 * exchange's start and end, and the event loop's idle time over the span of the requests.
 *
 * The critical path is the longest chain of requests each sent after the one before it was
 * answered (a page after the page whose cursor it carries, a read after the reads it needs, or a
 * request that waited for a free slot). Its depth counts round trips, so it does not depend on how
 * loaded the machine is; the idle time is how long the process sat with nothing to do while
 * requests were out.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

interface Exchange {
  start: number;
  end?: number;
  what: string;
}

export interface NetworkFigures {
  requests: number;
  /** Round trips on the longest chain of requests each waiting on the one before. */
  criticalDepth: number;
  /** The chain's requests counted by route (`line_items 20`), in the chain's order of first appearance. */
  criticalPath: string;
  /** From the first request sent to the last answer. */
  spanSeconds: number;
  /** The event loop's idle time within that span. */
  idleSeconds: number;
}

/** What a request is, for the critical path's summary: the last path segment that is not an id. */
function routeOf(path: string): string {
  const segments = (path.split('?')[0] ?? '').split('/').filter((s) => s !== '');
  const named = segments.filter((s, i) => i > 0 && !/\d/.test(s));
  return named[named.length - 1] ?? (segments[segments.length - 1] ?? '/');
}

/** Starts recording; `figures()` summarises what was recorded so far (undefined before any request). */
export function traceNetwork(): { figures: () => NetworkFigures | undefined } {
  const exchanges: Exchange[] = [];
  const byRequest = new WeakMap<object, Exchange>();
  let idleAtFirst = 0;
  let idleAtLast = 0;
  diagnosticsChannel.channel('undici:request:create').subscribe((message) => {
    const { request } = message as { request: { path: string } };
    const now = performance.now();
    if (exchanges.length === 0) idleAtFirst = performance.eventLoopUtilization().idle;
    const exchange: Exchange = { start: now, what: routeOf(request.path) };
    exchanges.push(exchange);
    byRequest.set(request, exchange);
  });
  const ended = (message: unknown): void => {
    const exchange = byRequest.get((message as { request: object }).request);
    if (exchange === undefined || exchange.end !== undefined) return;
    exchange.end = performance.now();
    idleAtLast = performance.eventLoopUtilization().idle;
  };
  diagnosticsChannel.channel('undici:request:trailers').subscribe(ended);
  diagnosticsChannel.channel('undici:request:error').subscribe(ended);
  return {
    figures: () => {
      if (exchanges.length === 0) return undefined;
      const done = exchanges.filter((e): e is Required<Exchange> => e.end !== undefined);
      const depth = new Map<Exchange, { n: number; before: Exchange | undefined }>();
      for (const e of done) {
        let best: { n: number; before: Exchange | undefined } = { n: 1, before: undefined };
        for (const [q, d] of depth) if ((q.end ?? Infinity) <= e.start && d.n + 1 > best.n) best = { n: d.n + 1, before: q };
        depth.set(e, best);
      }
      let last: Exchange | undefined;
      for (const [e, d] of depth) if (last === undefined || d.n > (depth.get(last)?.n ?? 0)) last = e;
      const chain: string[] = [];
      for (let e = last; e !== undefined; e = depth.get(e)?.before) chain.unshift(e.what);
      const counts = new Map<string, number>();
      for (const what of chain) counts.set(what, (counts.get(what) ?? 0) + 1);
      const first = Math.min(...done.map((e) => e.start));
      const end = Math.max(...done.map((e) => e.end));
      return {
        requests: exchanges.length,
        criticalDepth: last === undefined ? 0 : (depth.get(last)?.n ?? 0),
        criticalPath: [...counts].map(([what, n]) => `${what} ${n}`).join(', '),
        spanSeconds: (end - first) / 1000,
        idleSeconds: (idleAtLast - idleAtFirst) / 1000,
      };
    },
  };
}
