/**
 * A recording proxy in front of an emulator: forwards every request unchanged (Host header
 * included, so OAuth signatures made for the proxy's URL still verify) and, for the users
 * endpoints of custom audiences and of the do-not-reach list, records what each request carried —
 * its operations, their user entries and identifier values — counted from the body as the service
 * receives it, and the status answered. A test points adsctl at the proxy to see exactly what
 * went over the wire, independently of what adsctl says it sent.
 *
 * It can also meet the users requests with faults of its own, in order, whatever else happens
 * around them (the emulator's own injected faults draw per request in arrival order, so which
 * request they hit depends on everything before it): `reset` drops the connection before
 * forwarding, `lost` forwards and drops the connection once the emulator has answered, `503`
 * answers Service Unavailable without forwarding, `refuse` answers a 400 (a failure no client
 * retries), `pass` forwards as usual.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One operation of a users request. */
export interface UsersOperationSeen {
  type: string;
  /** User entries in `params.users`. */
  users: number;
  /** Identifier values across those entries. */
  identifiers: number;
}

/** What the proxy does to one users request. */
export type UsersFault = 'pass' | 'reset' | 'lost' | '503' | 'refuse';

/** A planned fault: for the next users request, or for the next one carrying an operation of this type (others pass meanwhile). */
export type PlannedFault = UsersFault | { operation: 'Update' | 'Delete'; fault: UsersFault };

/** One users request as the proxy saw it. */
export interface UsersRequestSeen {
  /** `audience` for custom_audiences/:id/users, `do_not_reach` for the list's users batch. */
  endpoint: 'audience' | 'do_not_reach';
  path: string;
  operations: UsersOperationSeen[];
  /** The status answered to adsctl (undefined when the connection was dropped). */
  status?: number;
  /** The fault the proxy met it with, if any. */
  fault?: Exclude<UsersFault, 'pass'>;
}

export interface UsersRecorder {
  /** The proxy's base URL, to use as the manifest's endpoint. */
  url: string;
  /** Users requests seen since the start or the last `reset`. */
  requests(): UsersRequestSeen[];
  reset(): void;
  /** Meets the next users requests with `faults`, one each, in order. */
  inject(faults: readonly PlannedFault[]): void;
  /**
   * Holds the next users request until `release()`: `arrived` resolves once it is held, so a
   * test can look at the project while an apply is in flight, deterministically.
   */
  holdNext(): { arrived: Promise<void>; release: () => void };
  close(): Promise<void>;
}

const AUDIENCE_USERS = /\/accounts\/[^/]+\/custom_audiences\/[^/]+\/users$/;
const DO_NOT_REACH_USERS = /\/accounts\/[^/]+\/do_not_reach_lists\/[^/]+\/users$/;

function operationsOf(body: Buffer): UsersOperationSeen[] {
  const parsed = JSON.parse(body.toString('utf8')) as Array<{ operation_type?: unknown; params?: { users?: Array<Record<string, unknown[]>> } }>;
  return parsed.map((op) => {
    const users = op.params?.users ?? [];
    return {
      type: String(op.operation_type),
      users: users.length,
      identifiers: users.reduce((n, entry) => n + Object.values(entry).reduce((m, values) => m + (Array.isArray(values) ? values.length : 0), 0), 0),
    };
  });
}

/** Starts the recording proxy on a free loopback port, forwarding to `target` (a base URL). */
export async function startUsersRecorder(target: string): Promise<UsersRecorder> {
  const to = new URL(target);
  let seen: UsersRequestSeen[] = [];
  const planned: PlannedFault[] = [];
  /** The fault for a request with `operations`: the head of the queue when it applies to them. */
  const nextFault = (operations: readonly UsersOperationSeen[]): UsersFault => {
    const head = planned[0];
    if (head === undefined) return 'pass';
    if (typeof head !== 'string' && !operations.some((o) => o.type === head.operation)) return 'pass';
    planned.shift();
    return typeof head === 'string' ? head : head.fault;
  };
  let hold: { arrive: () => void; released: Promise<void> } | undefined;
  const answer = (res: ServerResponse, status: number, code: string, message: string): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...(status === 503 ? { 'retry-after': '0' } : {}) });
    res.end(JSON.stringify({ errors: [{ code, message }], request: { params: {} } }));
  };
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const path = (req.url ?? '/').split('?')[0]!;
    const endpoint = req.method === 'POST' ? (AUDIENCE_USERS.test(path) ? 'audience' : DO_NOT_REACH_USERS.test(path) ? 'do_not_reach' : undefined) : undefined;
    let record: UsersRequestSeen | undefined;
    let fault: UsersFault = 'pass';
    if (endpoint !== undefined) {
      record = { endpoint, path, operations: operationsOf(body) };
      fault = nextFault(record.operations);
      if (fault !== 'pass') record.fault = fault;
      seen.push(record);
    }
    if (fault === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault === '503' || fault === 'refuse') {
      record!.status = fault === '503' ? 503 : 400;
      if (fault === '503') answer(res, 503, 'SERVICE_UNAVAILABLE', 'Service unavailable (injected by the test proxy)');
      else answer(res, 400, 'INVALID_PARAMETER', 'Refused by the test proxy');
      return;
    }
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (reply) => {
      if (fault === 'lost') {
        reply.resume();
        reply.on('end', () => req.socket.destroy());
        return;
      }
      if (record !== undefined) record.status = reply.statusCode;
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const held = hold;
      if (held !== undefined && req.method === 'POST' && (AUDIENCE_USERS.test(path) || DO_NOT_REACH_USERS.test(path))) {
        hold = undefined;
        held.arrive();
        void held.released.then(() => forward(req, res, Buffer.concat(chunks)));
        return;
      }
      forward(req, res, Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => seen,
    reset: () => {
      seen = [];
      planned.length = 0;
    },
    inject: (faults) => {
      planned.push(...faults);
    },
    holdNext: () => {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      hold = { arrive, released };
      return { arrived, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
