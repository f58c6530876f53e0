/**
 * `adsctl generate [DIR] [--account ID]... [--force]` (docs/architecture.md, "Contracts the code
 * relies on"): reads live accounts — every account the credentials reach, or those named — at
 * the endpoint `--endpoint`, ADSCTL_ENDPOINT or (with `--merge`) the manifest names, else `local`
 * (`chooseEndpoint`), writes one manifest per account into DIR (`<account id>.yaml`), and binds the state so that `adsctl plan DIR` right after plans nothing.
 * An existing file is never overwritten without `--force`, nor a second manifest written of an
 * account another manifest under DIR describes; `--merge` adds what no manifest binds yet to the
 * manifest of each account named (src/generate/merge.ts), keeping every line of it, and binds only
 * that. Bad input is one line on stderr, exit 1, and nothing written.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { chooseEndpoint } from '../api/endpoint-choice.js';
import { shownEndpoint } from '../api/endpoints.js';
import { formatDiagnostics } from '../diag/format.js';
import { kindNoun } from '../render/kind-noun.js';
import type { AccountEnvironment } from '../engine/accounts.js';
import type { RunOptions } from '../engine/run-options.js';
import { bindGenerated, boundKeys, mergeIntoManifest, readAndGenerate, type GeneratedTarget } from '../engine/generate.js';
import type { GeneratedBinding, GeneratedManifest } from '../generate/generate.js';
import type { LiveAccount } from '../live/types.js';
import type { DesiredAccount } from '../manifest/types.js';
import { findManifestFiles } from '../manifest/files.js';
import { loadManifests } from '../manifest/load.js';
import type { Io } from './io.js';
import { manifestRoot } from './root.js';
import { runOptions, withAccountOptions, type AccountFlags } from './run-options.js';
import { accountEnvironment } from './session.js';

interface GenerateFlags extends AccountFlags {
  account?: string[];
  force?: boolean;
  merge?: boolean;
  endpoint?: string;
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

/** What `generate --merge` works from: the directory, the accounts' manifests and what was read. */
interface MergeRun {
  dir: string;
  dirArg: string;
  endpoint: string;
  env: AccountEnvironment;
  /** The run's options (`runOptions`). */
  options: RunOptions;
  merging: ReadonlyMap<string, { file: string; text: string; desired: DesiredAccount; keys: Map<string, string> }>;
  read: { manifests: GeneratedManifest[]; live: ReadonlyMap<string, LiveAccount>; reads: number };
}

/**
 * `generate --merge`: each account's manifest gains what no manifest binds yet (src/generate/merge.ts),
 * loaded back before anything is written, and the state binds those objects, and only those.
 */
async function mergeGenerated(io: Io, setExit: (code: number) => void, fail: (message: string) => void, run: MergeRun): Promise<void> {
  const shown = (p: string): string => relative(process.cwd(), p) || p;
  const merged: Array<{ file: string; text: string; added: GeneratedBinding[]; notAdded: string[]; target: GeneratedTarget }> = [];
  for (const m of run.read.manifests) {
    const into = run.merging.get(m.accountId);
    if (into === undefined) continue;
    const result = mergeIntoManifest(into, m, io.env);
    if ('error' in result) return fail(`${shown(into.file)}:${result.error}; nothing was written`);
    const { desired, missing } = result;
    if (desired === undefined || missing.length > 0) {
      io.err(formatDiagnostics(result.diagnostics, result.sources));
      return fail(`${shown(into.file)} with the objects added does not load as it should (above${missing.length > 0 ? `; ${missing.map((b) => b.address).join(', ')} not declared` : ''}); nothing was written. This is a bug in adsctl`);
    }
    merged.push({ file: into.file, text: result.text, added: result.added, notAdded: result.notAdded, target: { manifest: { ...m, bindings: result.added }, desired, root: manifestRoot(into.file, run.dir), key: into.desired.key } });
  }
  for (const m of merged) if (m.added.length > 0) writeFileSync(m.file, m.text);
  const binding = merged.filter((m) => m.added.length > 0);
  const problems = binding.length === 0 ? [] : await bindGenerated(run.env, run.endpoint, binding.map((m) => m.target), run.read.live, run.options);
  if (problems.length > 0) return fail(`the manifests were written, but the state could not be bound: ${problems.join('; ')}`);
  for (const m of merged) {
    for (const note of m.notAdded) io.err(`Warning: not added to ${shown(m.file)}: ${note}
`);
    const roots = m.added.filter((b) => !m.added.some((a) => a !== b && b.address.startsWith(`${a.address}.`)));
    io.out(
      m.added.length === 0
        ? `${shown(m.file)}: account ${m.target.manifest.accountId} holds every object already; nothing added.\n`
        : `Merged into ${shown(m.file)}: ${roots.map((b) => b.address).join(', ')} (${m.added.length} objects, bound in the state); every line it had is kept.\n`,
    );
  }
  io.out(`Read with ${run.read.reads} requests. Run adsctl plan ${run.dirArg} --detailed-exitcode: it plans no changes.\n`);
  setExit(0);
}

/** Why generate without `--force` writes nothing when manifests it would write already exist (`shown`, as the user names them). */
export function existingRefusal(shown: readonly string[]): string {
  return `${shown.join(', ')} already exist${shown.length === 1 ? 's' : ''}: nothing was written (use --merge --account ID to add what it does not hold yet, or --force to overwrite)`;
}

export function registerGenerate(program: Command, io: Io, setExit: (code: number) => void): void {
  withAccountOptions(
    program
      .command('generate')
      .description('write manifests from live accounts, and bind the state to them')
      .argument('[dir]', 'the directory to write one manifest per account into', '.')
      .option('--account <id>', 'an account to read (repeatable; default: every account the credentials reach)', collect)
      .option('--force', 'overwrite manifests that already exist')
      .option('--merge', "add what no manifest binds yet to the account's existing manifest, keeping every line of it (with --account)")
      .option('--endpoint <name>', "local, sandbox, production or an emulator URL (default: ADSCTL_ENDPOINT, else with --merge the manifest's endpoint:, else local)"),
  )
    .option('--debug', 'print a request trace (credentials redacted)')
    .action(async (dirArg: string, flags: GenerateFlags) => {
      const fail = (message: string): void => {
        io.err(`Error: ${message}\n`);
        setExit(1);
      };
      const dir = resolve(dirArg);
      if (existsSync(dir) && !statSync(dir).isDirectory()) return fail(`${dirArg} is a file: generate writes one manifest per account into a directory`);
      const shown = (p: string): string => relative(process.cwd(), p) || p;
      // --merge reads the account where its manifest says it is, unless told otherwise
      const described = flags.merge === true ? describedAlready(dir, new Set(flags.account ?? []), new Set(), io.env) : [];
      const manifestEndpoints = [...new Set(described.map((d) => loadManifests(d.file, { env: io.env }).value?.accounts[0]?.endpoint ?? 'local'))];
      const choice = chooseEndpoint({ flag: flags.endpoint, environment: io.env['ADSCTL_ENDPOINT'], manifest: manifestEndpoints.length === 1 ? manifestEndpoints[0] : undefined });
      if (manifestEndpoints.length > 1 && choice.source === 'default') {
        return fail(`the manifests of the accounts to merge name different endpoints (${manifestEndpoints.map(shownEndpoint).join(', ')}): give --endpoint, or merge them one at a time; nothing was written`);
      }
      const endpoint = choice.name;
      const env = accountEnvironment(io, flags.debug === true, flags.endpoint);
      const run = runOptions(flags, io);
      // --merge: the manifest each account already has, and the keys it gives what it binds
      const merging = new Map<string, { file: string; text: string; desired: DesiredAccount; keys: Map<string, string> }>();
      if (flags.merge === true) {
        if (flags.force === true) return fail('--merge adds to a manifest and --force replaces it: give one of them');
        if ((flags.account ?? []).length === 0) return fail('--merge adds to the manifest of the accounts named with --account: name each account to merge into');
        for (const { file, accountId } of described) {
          if (merging.has(accountId)) return fail(`${shown(merging.get(accountId)!.file)} and ${shown(file)} both describe account ${accountId}: keep one, then run generate --merge again`);
          const loaded = loadManifests(file, { env: io.env });
          const desired = loaded.value?.accounts[0];
          if (desired === undefined) {
            io.err(formatDiagnostics(loaded.diagnostics, loaded.sources));
            return fail(`${shown(file)} does not load (above): fix it, then run generate --merge again; nothing was written`);
          }
          const keys = await boundKeys(env, manifestRoot(file, dir), endpoint, desired);
          if (typeof keys === 'string') return fail(keys);
          merging.set(accountId, { file, text: readFileSync(file, 'utf8'), desired, keys });
        }
        const without = (flags.account ?? []).filter((id) => !merging.has(id));
        if (without.length > 0) return fail(`no manifest in ${dirArg} describes account ${without.join(', ')}: generate ${without.length === 1 ? 'it' : 'them'} without --merge; nothing was written`);
      }
      const read = await readAndGenerate(env, {
        endpoint: choice,
        root: dir,
        accountIds: flags.account ?? [],
        schemaPath: relative(dir, schemaFile()).split('\\').join('/'),
        progress: (accountId, kind, count) => {
          if (count > 0) io.err(`Read ${accountId}: ${count} ${kindNoun(kind)}${count === 1 ? '' : 's'}\n`);
        },
        fixedKeys: new Map([...merging].map(([id, m]) => [id, m.keys])),
      }, run);
      if ('error' in read) return fail(read.error);
      if (merging.size > 0) return mergeGenerated(io, setExit, fail, { dir, dirArg, endpoint, env, options: run, merging, read });
      if (read.manifests.length === 0) return fail(`the credentials reach no account at ${endpoint}`);
      const existing = read.manifests.map((m) => join(dir, m.fileName)).filter((p) => existsSync(p));
      if (existing.length > 0 && flags.force !== true) return fail(existingRefusal(existing.map(shown)));
      // a second manifest of an account stops every plan of DIR: generate --merge adds to the one there is
      const already = describedAlready(dir, new Set(read.manifests.map((m) => m.accountId)), new Set(read.manifests.map((m) => join(dir, m.fileName))), io.env);
      if (already.length > 0) {
        const described = already.map((a) => `${shown(a.file)} already describes account ${a.accountId}`).join('; ');
        const files = already.map((a) => shown(a.file)).join(', ');
        return fail(
          `${described}: a second manifest of ${already.length === 1 ? 'it' : 'each'} in ${dirArg} would stop every plan there (duplicate-account), so nothing was written. ` +
            `To adopt what ${files} does not hold yet into it, keeping every line of it: adsctl generate ${dirArg} ${[...new Set(already.map((a) => `--account ${a.accountId}`))].join(' ')} --merge`,
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
      const problems = await bindGenerated(env, endpoint, targets, read.live, run);
      if (problems.length > 0) return fail(`the manifests were written, but the state could not be bound: ${problems.join('; ')}`);
      for (const m of read.manifests) for (const w of m.warnings) io.err(`Warning: ${w}\n`);
      for (const m of read.manifests) io.out(`Generated ${relative(process.cwd(), join(dir, m.fileName)) || m.fileName}: account ${m.accountId}, ${m.bindings.length} objects bound in the state.\n`);
      io.out(`Read with ${read.reads} requests. Run adsctl plan ${dirArg} --detailed-exitcode: it plans no changes.\n`);
      setExit(0);
    });
}
