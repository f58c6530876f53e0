/**
 * A closed gate in front of an emulator: an HTTP proxy that holds every request until `open()`,
 * then forwards it unchanged (Host header included, so OAuth signatures made for the proxy's URL
 * still verify). A CLI run pointed at it is stopped, deterministically, after it has taken the
 * state lock and before its first answer — a "run in progress" for lock tests, with no timing.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GateProxy {
  /** The proxy's base URL, to use as the endpoint instead of the emulator's. */
  url: string;
  /** Resolves when the first request has arrived (and is being held). */
  firstRequest: Promise<void>;
  /** Forwards every held request and every later one. */
  open(): void;
  /** Every request that has arrived, in order. */
  requests(): Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

/** Starts a closed gate on a free loopback port, forwarding to `target` (a base URL). */
export async function startGateProxy(target: string): Promise<GateProxy> {
  const to = new URL(target);
  let isOpen = false;
  const held: Array<() => void> = [];
  const seen: Array<{ method: string; path: string }> = [];
  let arrived!: () => void;
  const firstRequest = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '' });
    arrived();
    if (isOpen) forward(req, res);
    else held.push(() => forward(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    firstRequest,
    open: () => {
      isOpen = true;
      for (const go of held.splice(0)) go();
    },
    requests: () => [...seen],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
