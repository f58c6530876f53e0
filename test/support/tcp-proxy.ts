/**
 * A TCP proxy in front of a server (PostgreSQL in the tests), which a test can cut: every
 * connection through it is reset at once and the port stops listening, so new connections are
 * refused, as in an outage of the server, until `restore()` listens on the same port again.
 */
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The port the proxy listens on (127.0.0.1). */
  port: number;
  /** Resets every open connection and stops listening (new connections are refused). */
  cut(): Promise<void>;
  /** Listens on the same port again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to `host:port`. */
export async function startTcpProxy(host: string, targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = connect(targetPort, host);
    open.add(inbound).add(outbound);
    const end = (): void => {
      open.delete(inbound);
      open.delete(outbound);
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', end).on('close', end);
    outbound.on('error', end).on('close', end);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of [...open]) socket.resetAndDestroy();
      open.clear();
      await closed;
    },
    restore: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of [...open]) socket.destroy();
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}
