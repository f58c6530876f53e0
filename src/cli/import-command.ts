/**
 * `adsctl import ADDRESS ID [PATH]`: binds an existing live object to an address of the manifest,
 * so that the next plan compares instead of creating. The object must exist on the service and
 * be of the address's kind; the address must be in the manifest.
 */
import type { Command } from 'commander';
import type { AdsApi } from '../api/ads-api.js';
import type { ResourceKind } from '../kinds/kind.js';
import { ApiError } from '../api/errors.js';
import { formatDiagnostics } from '../diag/format.js';
import { formatAddress, parseAddress } from '../manifest/address.js';
import { loadManifests } from '../manifest/load.js';
import { KINDS } from '../kinds/registry.js';
import type { Io } from './io.js';
import { parseDuration } from './run-options.js';
import { accountLocation, givenDirectory } from './root.js';
import { openSessions } from './session.js';
import { appliedValues } from '../diff/applied.js';

interface ImportFlags {
  lockTimeout: number;
  debug?: boolean;
}

export function registerImport(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command('import')
    .description('bind an existing object to a manifest address')
    .argument('<address>', 'the address in the manifest, e.g. campaigns.summer_sale')
    .argument('<id>', 'the id of the live object')
    .argument('[path]', 'a manifest file or a directory of manifests', '.')
    .option('--lock-timeout <duration>', 'how long to wait for the state lock', parseDuration, 0)
    .option('--debug', 'print a request trace (credentials redacted)')
    .action(async (addressText: string, id: string, path: string, flags: ImportFlags) => {
      const loaded = loadManifests(path, { env: io.env });
      if (loaded.value === undefined) {
        io.err(formatDiagnostics(loaded.diagnostics, loaded.sources));
        return setExit(1);
      }
      const parsed = parseAddress(addressText);
      if (parsed.value === undefined) {
        io.err(formatDiagnostics(parsed.diagnostics, loaded.sources));
        return setExit(1);
      }
      const address = formatAddress(parsed.value);
      const owners = loaded.value.accounts.filter((a) => a.resources.some((r) => formatAddress(r.address) === address));
      if (owners.length !== 1) {
        io.err(owners.length === 0 ? `Error: ${address} is not in the manifests at ${path}: add it first, then import it\n` : `Error: ${address} is in several manifests (${owners.map((o) => o.file).join(', ')})\n`);
        return setExit(1);
      }
      const desired = owners[0]!;
      const kind = parsed.value.kind;
      const importing = KINDS[kind].import;
      if (importing.via === 'manifest') {
        io.err(`Error: ${address} cannot be imported with adsctl import: ${importing.hint}\n`);
        return setExit(1);
      }
      const { root, key } = accountLocation(desired, givenDirectory(path));
      const sessions = await openSessions([{ key, root, ...(desired.endpoint === undefined ? {} : { endpoint: desired.endpoint }), ...(desired.accountId === undefined ? {} : { accountId: desired.accountId }), desired }], {
        io,
        parallelism: 4,
        lockTimeoutMs: flags.lockTimeout,
        operation: 'import',
        debug: flags.debug === true,
      });
      if (sessions.diagnostics.length > 0) {
        io.err(formatDiagnostics(sessions.diagnostics, loaded.sources));
        return setExit(1);
      }
      const session = sessions.sessions[0]!;
      try {
        if (session.accountId === undefined) {
          io.err(`Error: account ${desired.key} does not exist yet: apply it before importing into it\n`);
          return setExit(1);
        }
        const existing = session.state.resources[address];
        if (existing !== undefined) {
          io.err(`Error: ${address} is already bound to ${existing.id}; use adsctl state rm first to bind it to another object\n`);
          return setExit(1);
        }
        const record = importing.via === 'get' ? ((await session.api.get(importing.resource, session.accountId, id)) as unknown as Record<string, unknown>) : await readOne(kind, session.api, session.accountId, id);
        if (record === undefined) {
          io.err(`Error: cannot import ${id} as ${address}: the account has no ${KINDS[kind].noun} ${id}\n`);
          return setExit(1);
        }
        // the live values count as applied: the next plan shows only real differences
        const manifested = desired.resources.find((r) => formatAddress(r.address) === address);
        const written = new Set([...Object.keys(manifested?.attributes ?? {}), ...Object.keys(manifested?.references ?? {})]);
        const read = KINDS[kind].read;
        const idField = read.via === 'custom' ? (read.idField ?? 'id') : 'id';
        // what the service never answers (a media file's content hash) is taken as the manifest says
        const assumed: Record<string, unknown> = {};
        for (const rule of KINDS[kind].attributes) if (rule.writeOnly === true && !Object.hasOwn(record, rule.field) && manifested?.attributes[rule.field] !== undefined) assumed[rule.field] = manifested.attributes[rule.field];
        session.state.resources[address] = { kind, id: String(record[idField]), applied: appliedValues(kind, record, assumed, written) };
        await session.store.write(session.state, 'import');
        io.out(`Import successful! ${address} is bound to ${id}.\n`);
        setExit(0);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        io.err(`Error: cannot import ${id} as ${address}: ${error.describe()}\n`);
        setExit(1);
      } finally {
        await sessions.close();
      }
    });
}

/** The live record of `kind` with `id`, read through the kind's own reader; undefined when there is none. */
async function readOne(kind: ResourceKind, api: AdsApi, accountId: string, id: string): Promise<Record<string, unknown> | undefined> {
  const read = KINDS[kind].read;
  if (read.via !== 'custom') return undefined;
  const records = await read.read(api, accountId, { bound: new Set([id]), parents: [] });
  return records.find((r) => String(r[read.idField ?? 'id']) === id && r['deleted'] !== true);
}
