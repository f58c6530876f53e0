/**
 * Adoption as `adsctl import` and `adsctl generate` run it, in the test's own process, on a
 * workspace of the engine harness (engine-harness.ts): the engine's `importObject`,
 * `readAndGenerate` and `bindGenerated`, with what the commands print (the import's own lines come
 * from the command, src/cli/import-command.ts).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseEndpoint } from '../../src/api/endpoint-choice.js';
import { formatDiagnostics } from '../../src/diag/format.js';
import { openAccounts } from '../../src/engine/accounts.js';
import { bindGenerated, readAndGenerate, type GeneratedTarget } from '../../src/engine/generate.js';
import { importObject, importRefusal } from '../../src/engine/import.js';
import { KINDS } from '../../src/kinds/registry.js';
import { formatAddress, parseAddress } from '../../src/manifest/address.js';
import { loadManifests } from '../../src/manifest/load.js';
import { existingRefusal } from '../../src/cli/generate-command.js';
import { adoptedLines, importedLine } from '../../src/cli/import-command.js';
import { accountLocation, givenDirectory, manifestRoot } from '../../src/cli/root.js';
import { RunOutput, type EngineRun, type EngineWorkspace } from './engine-harness.js';

/** The manifest schema, which a generated manifest's modeline names. */
const MANIFEST_SCHEMA = fileURLToPath(new URL('../../schemas/manifest.schema.json', import.meta.url));

/** `adsctl import ADDRESS ID` in `ws` (import-command.ts): the engine's `importObject` on the account whose manifest has `address`. */
export async function importInto(ws: EngineWorkspace, addressText: string, id: string): Promise<EngineRun> {
  const out = new RunOutput(ws.clock, ws.env, undefined);
  const io = out.io();
  const loaded = loadManifests(ws.dir, { env: ws.env });
  const parsed = parseAddress(addressText);
  if (loaded.value === undefined || parsed.value === undefined) {
    io.err(formatDiagnostics([...loaded.diagnostics, ...parsed.diagnostics], loaded.sources));
    return out.done(1);
  }
  const address = formatAddress(parsed.value);
  const owners = loaded.value.accounts.filter((a) => a.resources.some((r) => formatAddress(r.address) === address));
  if (owners.length !== 1) {
    io.err(owners.length === 0 ? `Error: ${address} is not in the manifests at ${ws.dir}: add it first, then import it\n` : `Error: ${address} is in several manifests (${owners.map((o) => o.file).join(', ')})\n`);
    return out.done(1);
  }
  const desired = owners[0]!;
  const refusal = importRefusal(parsed.value.kind, address);
  if (refusal !== undefined) {
    io.err(`Error: ${refusal}\n`);
    return out.done(1);
  }
  const { root, key } = accountLocation(desired, givenDirectory(ws.dir));
  const target = { key, root, ...(desired.endpoint === undefined ? {} : { endpoint: desired.endpoint }), ...(desired.accountId === undefined ? {} : { accountId: desired.accountId }), desired };
  const sessions = await openAccounts([target], ws.environment(out), ws.options(), 'import');
  if (sessions.diagnostics.length > 0) {
    io.err(formatDiagnostics(sessions.diagnostics, loaded.sources));
    return out.done(1);
  }
  try {
    const outcome = await importObject(sessions.sessions[0]!, desired, address, parsed.value.kind, id);
    if ('refused' in outcome) {
      if (outcome.problems !== undefined) io.err(formatDiagnostics(outcome.problems, loaded.sources));
      io.err(`Error: ${outcome.refused}\n`);
      return out.done(1);
    }
    io.out(importedLine(address, id));
    io.out(adoptedLines(outcome.adopted));
    return out.done(0);
  } finally {
    await sessions.close();
  }
}

/**
 * `adsctl generate DIR --account ID... --endpoint NAME [--force]` in `ws` (generate-command.ts,
 * without `--merge`): the engine's `readAndGenerate`, one manifest per account written into DIR
 * (relative to the workspace), loaded back, and bound in the state by `bindGenerated`; a manifest
 * already there refused with the command's words unless `force`. The command's checks of DIR
 * before it reads (a file; another manifest there describing the account) are not made here.
 */
export async function generateInto(ws: EngineWorkspace, dirArg: string, accountIds: string[], endpoint: string, flags: { force?: boolean } = {}): Promise<EngineRun> {
  const out = new RunOutput(ws.clock, ws.env, undefined);
  const io = out.io();
  const dir = ws.path(dirArg);
  const env = { ...ws.environment(out), endpointGiven: { flag: endpoint, environment: ws.env['ADSCTL_ENDPOINT'] } };
  const choice = chooseEndpoint({ flag: endpoint, environment: ws.env['ADSCTL_ENDPOINT'] });
  const read = await readAndGenerate(env, {
    endpoint: choice,
    root: dir,
    accountIds,
    schemaPath: relative(dir, MANIFEST_SCHEMA).split('\\').join('/'),
    progress: (accountId, kind, count) => {
      if (count > 0) io.err(`Read ${accountId}: ${count} ${KINDS[kind].noun}${count === 1 ? '' : 's'}\n`);
    },
    fixedKeys: new Map(),
  }, ws.options());
  if ('error' in read) {
    io.err(`Error: ${read.error}\n`);
    return out.done(1);
  }
  if (read.manifests.length === 0) {
    io.err(`Error: the credentials reach no account at ${choice.name}\n`);
    return out.done(1);
  }
  const existing = read.manifests.map((m) => join(dir, m.fileName)).filter((p) => existsSync(p));
  if (existing.length > 0 && flags.force !== true) {
    io.err(`Error: ${existingRefusal(existing.map((p) => relative(ws.dir, p) || p))}\n`);
    return out.done(1);
  }
  mkdirSync(dir, { recursive: true });
  const targets: GeneratedTarget[] = [];
  for (const m of read.manifests) {
    const file = join(dir, m.fileName);
    writeFileSync(file, m.text);
    const loaded = loadManifests(file, { env: {} });
    const desired = loaded.value?.accounts[0];
    if (desired === undefined) {
      io.err(formatDiagnostics(loaded.diagnostics, loaded.sources));
      return out.done(1);
    }
    targets.push({ manifest: m, desired, root: manifestRoot(file, dir), key: m.accountId });
  }
  const problems = await bindGenerated(env, choice.name, targets, read.live, ws.options());
  if (problems.length > 0) {
    io.err(`Error: the manifests were written, but the state could not be bound: ${problems.join('; ')}\n`);
    return out.done(1);
  }
  for (const m of read.manifests) for (const w of m.warnings) io.err(`Warning: ${w}\n`);
  for (const m of read.manifests) io.out(`Generated ${join(dirArg, m.fileName)}: account ${m.accountId}, ${m.bindings.length} objects bound in the state.\n`);
  io.out(`Read with ${read.reads} requests. Run adsctl plan ${dirArg} --detailed-exitcode: it plans no changes.\n`);
  return out.done(0);
}
