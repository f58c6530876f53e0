/**
 * `adsctl generate [DIR] [--account ID]... [--force]` (docs/architecture.md, "Contracts the code
 * relies on"): reads live accounts — every account the credentials reach, or those named — at
 * the endpoint the environment or `--endpoint` names, writes one manifest per account into DIR
 * (`<account id>.yaml`), and binds the state so that `adsctl plan DIR` right after plans nothing.
 * An existing file is never overwritten without `--force`, nor a second manifest written of an
 * account another manifest under DIR describes; bad input is one line on stderr, exit 1, and
 * nothing written.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { formatDiagnostics } from '../diag/format.js';
import { bindGenerated, readAndGenerate, type GeneratedTarget } from '../engine/generate.js';
import { KINDS } from '../kinds/registry.js';
import { findManifestFiles } from '../manifest/files.js';
import { loadManifests } from '../manifest/load.js';
import type { Io } from './io.js';
import { manifestRoot } from './root.js';
import { parseDuration } from './run-options.js';
import { accountEnvironment } from './session.js';

interface GenerateFlags {
  account?: string[];
  force?: boolean;
  endpoint?: string;
  parallelism: number;
  lockTimeout: number;
  debug?: boolean;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** The manifest schema of this installation (two or three folders above this module). */
function schemaFile(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const path = join(dir, 'schemas', 'manifest.schema.json');
    if (existsSync(path)) return path;
    if (dirname(dir) === dir) return join('schemas', 'manifest.schema.json');
  }
}

/**
 * The manifests under `dir` other than those `overwritten`, that describe one of `accounts`:
 * `plan DIR` would refuse a generated manifest beside them (`duplicate-account`). A manifest
 * that does not load names no account here; its own errors stop the plan anyway.
 */
function describedAlready(dir: string, accounts: ReadonlySet<string>, overwritten: ReadonlySet<string>, env: Io['env']): Array<{ file: string; accountId: string }> {
  if (!existsSync(dir)) return [];
  const found: Array<{ file: string; accountId: string }> = [];
  for (const file of findManifestFiles(dir).files) {
    if (overwritten.has(resolve(file))) continue;
    const accountId = loadManifests(file, { env }).value?.accounts[0]?.accountId;
    if (accountId !== undefined && accounts.has(accountId)) found.push({ file, accountId });
  }
  return found;
}

export function registerGenerate(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command('generate')
    .description('write manifests from live accounts, and bind the state to them')
    .argument('[dir]', 'the directory to write one manifest per account into', '.')
    .option('--account <id>', 'an account to read (repeatable; default: every account the credentials reach)', collect)
    .option('--force', 'overwrite manifests that already exist')
    .option('--endpoint <name>', 'local, sandbox, production or an emulator URL (default: ADSCTL_ENDPOINT, else local)')
    .option('--parallelism <n>', 'requests in flight at once', (v: string) => Number.parseInt(v, 10), 8)
    .option('--lock-timeout <duration>', 'how long to wait for the state lock', parseDuration, 0)
    .option('--debug', 'print a request trace (credentials redacted)')
    .action(async (dirArg: string, flags: GenerateFlags) => {
      const fail = (message: string): void => {
        io.err(`Error: ${message}\n`);
        setExit(1);
      };
      const dir = resolve(dirArg);
      if (existsSync(dir) && !statSync(dir).isDirectory()) return fail(`${dirArg} is a file: generate writes one manifest per account into a directory`);
      const fromEnv = io.env['ADSCTL_ENDPOINT'];
      const endpoint = flags.endpoint ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : 'local');
      const env = { ...accountEnvironment(io, flags.debug === true), endpointOverride: endpoint };
      const read = await readAndGenerate(env, {
        endpoint,
        root: dir,
        accountIds: flags.account ?? [],
        schemaPath: relative(dir, schemaFile()).split('\\').join('/'),
        parallelism: flags.parallelism,
        lockTimeoutMs: flags.lockTimeout,
        progress: (accountId, kind, count) => {
          if (count > 0) io.err(`Read ${accountId}: ${count} ${KINDS[kind].noun}${count === 1 ? '' : 's'}\n`);
        },
        clock: io.clock,
      });
      if ('error' in read) return fail(read.error);
      if (read.manifests.length === 0) return fail(`the credentials reach no account at ${endpoint}`);
      const existing = read.manifests.map((m) => join(dir, m.fileName)).filter((p) => existsSync(p));
      if (existing.length > 0 && flags.force !== true) return fail(`${existing.map((p) => relative(process.cwd(), p) || p).join(', ')} already exist${existing.length === 1 ? 's' : ''}: nothing was written (use --force to overwrite)`);
      // a second manifest of an account stops every plan of DIR: generate writes whole manifests and adds to none
      const shown = (p: string): string => relative(process.cwd(), p) || p;
      const already = describedAlready(dir, new Set(read.manifests.map((m) => m.accountId)), new Set(read.manifests.map((m) => join(dir, m.fileName))), io.env);
      if (already.length > 0) {
        const described = already.map((a) => `${shown(a.file)} already describes account ${a.accountId}`).join('; ');
        const files = already.map((a) => shown(a.file)).join(', ');
        return fail(
          `${described}: a second manifest of ${already.length === 1 ? 'it' : 'each'} in ${dirArg} would stop every plan there (duplicate-account), so nothing was written. ` +
            `generate writes whole manifests and cannot add to an existing one: to adopt live objects into ${files}, declare them there and bind each with adsctl import ADDRESS ID (or an import: entry); ` +
            `or move ${files} out of ${dirArg} and generate again`,
        );
      }
      // each manifest is loaded back before anything is written: what generate writes must read as written
      const scratch = mkdtempSync(join(tmpdir(), 'adsctl-generate-'));
      const targets: GeneratedTarget[] = [];
      try {
        for (const m of read.manifests) {
          const path = join(scratch, m.fileName);
          writeFileSync(path, m.text);
          const loaded = loadManifests(path, { env: {} });
          const desired = loaded.value?.accounts[0];
          if (desired === undefined) {
            io.err(formatDiagnostics(loaded.diagnostics, loaded.sources));
            return fail(`the manifest generated for account ${m.accountId} does not load (above); nothing was written. This is a bug in adsctl`);
          }
          const file = join(dir, m.fileName);
          targets.push({ manifest: m, desired, root: manifestRoot(file, dir), key: m.accountId });
        }
        mkdirSync(dir, { recursive: true });
        for (const m of read.manifests) writeFileSync(join(dir, m.fileName), readFileSync(join(scratch, m.fileName)));
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
      const problems = await bindGenerated(env, endpoint, targets, read.live, { parallelism: flags.parallelism, lockTimeoutMs: flags.lockTimeout, clock: io.clock });
      if (problems.length > 0) return fail(`the manifests were written, but the state could not be bound: ${problems.join('; ')}`);
      for (const m of read.manifests) for (const w of m.warnings) io.err(`Warning: ${w}\n`);
      for (const m of read.manifests) io.out(`Generated ${relative(process.cwd(), join(dir, m.fileName)) || m.fileName}: account ${m.accountId}, ${m.bindings.length} objects bound in the state.\n`);
      io.out(`Read with ${read.reads} requests. Run adsctl plan ${dirArg} --detailed-exitcode: it plans no changes.\n`);
      setExit(0);
    });
}
