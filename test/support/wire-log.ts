/**
 * A recording proxy in front of an emulator that sees every request: it forwards each unchanged
 * (Host header included, so OAuth signatures made for the proxy's URL still verify) and records,
 * in arrival order, its method, path, parameters (query, form body, or JSON body) and the status
 * answered. It can also refuse chosen writes as the service refuses them: a single request with a
 * 400 and the error envelope, a batch with a 400 whose `operation_errors` names the refused items
 * (one slot per input item, empty for the others), nothing forwarded, so nothing changes. A test
 * points adsctl at the proxy to see what went over the wire, in order, independently of what
 * adsctl says it sent.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the proxy saw it. */
export interface WireRequest {
  method: string;
  path: string;
  /** Query and form parameters (values as sent, comma lists kept whole). */
  params: Record<string, string>;
  /** A JSON body, parsed (batches: an array of `{operation_type, params}`). */
  json?: unknown;
  /** The status answered (undefined while in flight). */
  status?: number;
  /** Set when the proxy refused it instead of forwarding. */
  refused?: true;
  /** The JSON answered, parsed (undefined for other answers, or while in flight). */
  answer?: unknown;
}

/** One batch item, or the parameters of a single request, for a refusal rule to judge. */
export interface WireItem {
  method: string;
  path: string;
  operationType?: string;
  params: Record<string, unknown>;
}

/** Decides whether an item is refused; answers the error message to refuse it with. */
export type RefusalRule = (item: WireItem) => string | undefined;

export interface WireLog {
  /** The proxy's base URL, to use as the manifest's endpoint. */
  url: string;
  requests(): WireRequest[];
  /** The write requests (anything but GET) seen so far. */
  writes(): WireRequest[];
  reset(): void;
  /** Refuses the items `rule` names, from now until `allow()`. */
  refuse(rule: RefusalRule): void;
  allow(): void;
  /**
   * Holds the `n`th write request from now (1-based) for good: `before` it reaches the emulator,
   * or `after` the emulator handled it and before its answer is relayed. Resolves once it is held,
   * so a test can kill the client at that exact point. `release()` drops every held connection.
   */
  trap(n: number, when: 'before' | 'after'): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

function paramsOf(query: string, body: Buffer, type: string | undefined): { params: Record<string, string>; json?: unknown } {
  const params: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(query)) params[k] = v;
  if (body.length === 0) return { params };
  if (type?.includes('application/json') === true) {
    try {
      return { params, json: JSON.parse(body.toString('utf8')) };
    } catch {
      return { params };
    }
  }
  if (type?.includes('application/x-www-form-urlencoded') === true) for (const [k, v] of new URLSearchParams(body.toString('utf8'))) params[k] = v;
  return { params };
}

/** The error slots of a refused batch, or the message of a refused single request; undefined to forward. */
function judge(seen: WireRequest, rule: RefusalRule | undefined): { slots?: Array<Array<Record<string, string>>>; message?: string } | undefined {
  if (rule === undefined || seen.method === 'GET') return undefined;
  if (Array.isArray(seen.json) && seen.path.includes('/batch/')) {
    const slots = seen.json.map((item: { operation_type?: unknown; params?: Record<string, unknown> }) => {
      const message = rule({ method: seen.method, path: seen.path, operationType: String(item.operation_type), params: item.params ?? {} });
      return message === undefined ? [] : [{ code: 'INVALID_PARAMETER', message }];
    });
    return slots.some((s) => s.length > 0) ? { slots } : undefined;
  }
  const params = typeof seen.json === 'object' && seen.json !== null && !Array.isArray(seen.json) ? { ...seen.params, ...(seen.json as Record<string, unknown>) } : seen.params;
  const message = rule({ method: seen.method, path: seen.path, params });
  return message === undefined ? undefined : { message };
}

/** Starts the proxy on a free loopback port, forwarding to `target` (a base URL). */
export async function startWireLog(target: string): Promise<WireLog> {
  const to = new URL(target);
  let seen: WireRequest[] = [];
  let rule: RefusalRule | undefined;
  let trapped: { left: number; when: 'before' | 'after'; held: () => void } | undefined;
  const heldSockets: Array<{ destroy: () => void }> = [];
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const [path = '/', query = ''] = (req.url ?? '/').split('?');
    const record: WireRequest = { method: req.method ?? 'GET', path, ...paramsOf(query, body, req.headers['content-type']) };
    seen.push(record);
    let hold: 'before' | 'after' | undefined;
    if (trapped !== undefined && record.method !== 'GET' && --trapped.left === 0) {
      hold = trapped.when;
      const { held } = trapped;
      trapped = undefined;
      heldSockets.push(req.socket);
      if (hold === 'before') {
        held();
        return;
      }
      res.on('held', held);
    }
    const refusal = judge(record, rule);
    if (refusal !== undefined) {
      record.status = 400;
      record.refused = true;
      res.writeHead(400, { 'content-type': 'application/json' });
      const errors = refusal.slots?.flat() ?? [{ code: 'INVALID_PARAMETER', message: refusal.message ?? '' }];
      res.end(JSON.stringify(refusal.slots === undefined ? { errors, request: { params: {} } } : { errors, operation_errors: refusal.slots, request: [] }));
      return;
    }
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (reply) => {
      const chunks: Buffer[] = [];
      reply.on('data', (d: Buffer) => chunks.push(d));
      reply.on('end', () => {
        const text = Buffer.concat(chunks);
        record.status = reply.statusCode;
        if (String(reply.headers['content-type'] ?? '').includes('json')) {
          try {
            record.answer = JSON.parse(text.toString('utf8'));
          } catch {
            // not JSON after all: nothing to record
          }
        }
        if (hold === 'after') {
          res.emit('held');
          return;
        }
        const { 'content-length': _length, 'transfer-encoding': _encoding, ...headers } = reply.headers;
        res.writeHead(reply.statusCode ?? 502, { ...headers, 'content-length': String(text.length) });
        res.end(text);
      });
    });
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => forward(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => [...seen],
    writes: () => seen.filter((r) => r.method !== 'GET'),
    reset: () => {
      seen = [];
    },
    refuse: (r) => {
      rule = r;
    },
    allow: () => {
      rule = undefined;
    },
    trap: (n, when) =>
      new Promise<void>((resolve) => {
        trapped = { left: n, when, held: resolve };
      }),
    release: () => {
      trapped = undefined;
      for (const socket of heldSockets.splice(0)) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
