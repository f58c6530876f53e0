/**
 * `adsctl import ADDRESS ID [PATH]`: binds an existing live object to an address of the manifest
 * (src/engine/import.ts), with the children the manifest declares under it that exist live. The
 * address must be in exactly one of the manifests at PATH.
 */
import type { Command } from 'commander';
import { formatDiagnostics } from '../diag/format.js';
import { importObject, importRefusal } from '../engine/import.js';
import { formatAddress, parseAddress } from '../manifest/address.js';
import { loadManifests } from '../manifest/load.js';
import type { Io } from './io.js';
import { runOptions, withAccountOptions, type AccountFlags } from './run-options.js';
import { accountLocation, givenDirectory } from './root.js';
import { openSessions } from './session.js';
import { tellRemovedVersions } from './removed-versions.js';

interface ImportFlags extends AccountFlags {
  debug?: boolean;
}

/** What an import that bound `address` to `id` says first (exported for the engine's in-process tests, which print it as the command does). */
export function importedLine(address: string, id: string): string {
  return `Import successful! ${address} is bound to ${id}.\n`;
}

/** The children an import adopted, one line each after a heading; nothing when it adopted none. */
export function adoptedLines(adopted: ReadonlyArray<{ address: string; id: string }>): string {
  if (adopted.length === 0) return '';
  return `It adopts the ${adopted.length} ${adopted.length === 1 ? 'child' : 'children'} the manifest declares under it that exist live, matched by identity:\n${adopted.map((a) => `  ${a.address} is bound to ${a.id}.\n`).join('')}`;
}

export function registerImport(program: Command, io: Io, setExit: (code: number) => void): void {
  withAccountOptions(
    program
      .command('import')
      .description('bind an existing object to a manifest address')
      .argument('<address>', 'the address in the manifest, e.g. campaigns.summer_sale')
      .argument('<id>', 'the id of the live object')
      .argument('[path]', 'a manifest file or a directory of manifests', '.'),
  )
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
      const refusal = importRefusal(parsed.value.kind, address);
      if (refusal !== undefined) {
        io.err(`Error: ${refusal}\n`);
        return setExit(1);
      }
      const { root, key } = accountLocation(desired, givenDirectory(path));
      const sessions = await openSessions([{ key, root, ...(desired.endpoint === undefined ? {} : { endpoint: desired.endpoint }), ...(desired.accountId === undefined ? {} : { accountId: desired.accountId }), desired }], {
        io,
        run: runOptions(flags, io),
        operation: 'import',
        debug: flags.debug === true,
      });
      if (sessions.diagnostics.length > 0) {
        io.err(formatDiagnostics(sessions.diagnostics, loaded.sources));
        return setExit(1);
      }
      try {
        const outcome = await importObject(sessions.sessions[0]!, desired, address, parsed.value.kind, id);
        if ('refused' in outcome) {
          if (outcome.problems !== undefined) io.err(formatDiagnostics(outcome.problems, loaded.sources));
          io.err(`Error: ${outcome.refused}\n`);
          return setExit(1);
        }
        io.out(importedLine(address, id));
        tellRemovedVersions(io, [sessions.sessions[0]!.store]);
        io.out(adoptedLines(outcome.adopted));
        setExit(0);
      } finally {
        await sessions.close();
      }
    });
}
