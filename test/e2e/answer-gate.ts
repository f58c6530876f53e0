/**
 * A proxy in front of an emulator that forwards every request at once but can withhold the answers
 * of chosen write requests: the service has made the change, the client has not heard of it. A
 * run stopped there (by a signal, or killed) is caught with requests in flight, deterministically
 * and without timing. Headers go through unchanged, Host included, so OAuth signatures made for
 * the proxy's URL still verify (as in test/support/gate-proxy.ts).
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A write request as the gate sees it: its method and path, and how many writes came before it. */
export interface SeenWrite {
  method: string;
  path: string;
  index: number;
}

export interface AnswerGate {
  /** The proxy's base URL, to use as the endpoint (ADSCTL_ENDPOINT) instead of the emulator's. */
  url: string;
  /** Answers withheld now (their writes reached the service). */
  held(): number;
  /** Write requests forwarded so far. */
  writes(): number;
  /** Delivers the withheld answers, and every later answer at once. */
  release(): void;
  close(): Promise<void>;
}

const WRITES = new Set(['POST', 'PUT', 'DELETE']);

/** Starts a gate on a free loopback port forwarding to `target`; it withholds the answers of the writes `hold` picks. */
export async function startAnswerGate(target: string, hold: (write: SeenWrite) => boolean): Promise<AnswerGate> {
  const to = new URL(target);
  let released = false;
  let writes = 0;
  const withheld: Array<() => void> = [];
  const forward = (req: IncomingMessage, res: ServerResponse, withhold: boolean): void => {
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const deliver = (): void => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(chunks));
        };
        if (withhold && !released) withheld.push(deliver);
        else deliver();
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const isWrite = WRITES.has(method);
    const write: SeenWrite = { method, path: (req.url ?? '').split('?')[0] ?? '', index: writes };
    if (isWrite) writes++;
    forward(req, res, isWrite && hold(write));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    held: () => withheld.length,
    writes: () => writes,
    release: () => {
      released = true;
      for (const deliver of withheld.splice(0)) deliver();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
