/**
 * A TCP proxy in front of a server (PostgreSQL in the tests), which a test can cut: every
 * connection through it is reset at once and new ones are refused, as in an outage of the server
 * or of the network to it, until `restore()`.
 */
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The port the proxy listens on (127.0.0.1). */
  port: number;
  /** Resets every open connection and refuses new ones. */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to `host:port`. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;
  const server = createServer((inbound) => {
    if (down) {
      inbound.resetAndDestroy();
      return;
    }
    const outbound = connect(port, host);
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
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => {
      down = true;
      for (const socket of [...open]) socket.resetAndDestroy();
      open.clear();
    },
    restore: () => {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of [...open]) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
