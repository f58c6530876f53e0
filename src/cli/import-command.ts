/**
 * `adsctl import ADDRESS ID [PATH]`: binds an existing live object to an address of the manifest,
 * so that the next plan compares instead of creating. The object must exist on the service and
 * be of the address's kind; the address must be in the manifest. The import of a campaign, a
 * line item or a custom audience also binds the live children the manifest declares under it,
 * matched by identity (docs/architecture.md, "Imports adopt children"): the diff of the import's
 * scope says which (src/diff/import-bindings.ts), and all of them are written to state at once,
 * or none.
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
import { openSessions, type AccountSession } from './session.js';
import { adoptedEntries, bindingProblems, importedEntry, importScope, scopedState } from '../diff/import-bindings.js';
import { diffResources } from '../diff/diff.js';
import { ADOPTING_PARENTS } from '../kinds/adoption.js';
import { fetchLiveState } from '../live/fetch.js';
import type { DesiredAccount } from '../manifest/types.js';
import type { Diagnostic } from '../diag/diagnostic.js';
import type { StateResource } from '../state/state-file.js';

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
        const manifested = desired.resources.find((r) => formatAddress(r.address) === address);
        const read = KINDS[kind].read;
        const idField = read.via === 'custom' ? (read.idField ?? 'id') : 'id';
        const boundId = String(record[idField]);
        const children = ADOPTING_PARENTS.has(kind) ? await adoptChildren(session, desired, address, boundId) : { entries: {}, problems: [] };
        if (children.problems.length > 0) {
          io.err(formatDiagnostics(children.problems, loaded.sources));
          io.err(`Error: ${address} was not imported, and nothing was written: what it adopts cannot be bound (above)\n`);
          return setExit(1);
        }
        session.state.resources[address] = importedEntry(kind, manifested, record, boundId);
        Object.assign(session.state.resources, children.entries);
        await session.store.write(session.state, 'import');
        io.out(`Import successful! ${address} is bound to ${id}.\n`);
        const adopted = Object.entries(children.entries);
        if (adopted.length > 0) io.out(`It adopts the ${adopted.length} ${adopted.length === 1 ? 'child' : 'children'} the manifest declares under it that exist live, matched by identity:\n${adopted.map(([a, e]) => `  ${a} is bound to ${e.id}.\n`).join('')}`);
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

/**
 * The bindings of the children the manifest declares under `address` (bound to `id`) that exist
 * live, from a refresh and diff of the import's scope alone; with the problems that stop the
 * import (a child matching several live objects, an object bound twice).
 */
async function adoptChildren(session: AccountSession, desired: DesiredAccount, address: string, id: string): Promise<{ entries: Record<string, StateResource>; problems: Diagnostic[] }> {
  const scope = importScope(desired, address, id);
  const prefix = `${address}.`;
  if (!scope.resources.some((r) => formatAddress(r.address).startsWith(prefix))) return { entries: {}, problems: [] };
  const state = scopedState(session.state, scope);
  const live = await fetchLiveState({ api: session.api, account: session.key, accountId: session.accountId, desired: scope, state });
  const diff = diffResources({ desired: scope, live, state, mode: 'plan' });
  return { entries: adoptedEntries(diff.value ?? [], scope, live, state, address), problems: bindingProblems(diff.diagnostics) };
}

/** The live record of `kind` with `id`, read through the kind's own reader; undefined when there is none. */
async function readOne(kind: ResourceKind, api: AdsApi, accountId: string, id: string): Promise<Record<string, unknown> | undefined> {
  const read = KINDS[kind].read;
  if (read.via !== 'custom') return undefined;
  const records = await read.read(api, accountId, { bound: new Set([id]), parents: [] });
  return records.find((r) => String(r[read.idField ?? 'id']) === id && r['deleted'] !== true);
}
