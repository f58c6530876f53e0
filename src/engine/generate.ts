/**
 * `adsctl generate`'s runs (docs/architecture.md, "Stages"): read whole live accounts at an
 * endpoint (every account its credentials reach, or the ones named), write their manifests
 * (src/generate/), and, once the command has written the files, bind the state of each to the
 * live objects, so that the next plan compares rather than creates. Plain data in, values out;
 * nothing here touches the process.
 */
import { join } from 'node:path';
import { AdsApi } from '../api/ads-api.js';
import { ApiClient } from '../api/client.js';
import { endpointSetting, type EndpointChoice } from '../api/endpoint-choice.js';
import { ApiError } from '../api/errors.js';
import { importedEntry } from '../diff/import-bindings.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount } from '../manifest/types.js';
import type { ResourceKind } from '../kinds/kind.js';
import type { Diagnostic } from '../diag/diagnostic.js';
import { GENERATE_READS, generateManifests, type GeneratedBinding, type GeneratedManifest } from '../generate/generate.js';
import { mergeManifest } from '../generate/merge.js';
import { loadManifestSources } from '../manifest/load.js';
import { fetchWholeAccount } from '../live/whole-account.js';
import { loadState } from '../state/apply-journal.js';
import type { LiveAccount } from '../live/types.js';
import { noCredentials, openAccounts, runHints, type AccountEnvironment } from './accounts.js';
import type { RunOptions } from './run-options.js';

/** What to read. */
interface GenerateRequest {
  /** The endpoint (`chooseEndpoint`: --endpoint, ADSCTL_ENDPOINT, the merged manifest's, or local). */
  endpoint: EndpointChoice;
  /** Where the embedded emulator of `local` keeps its data (the output directory). */
  root: string;
  /** Accounts named with --account; empty: every account the credentials reach. */
  accountIds: readonly string[];
  /** The manifest schema relative to the output directory (the editor modeline). */
  schemaPath: string;
  /** Told as each kind of each account is read. */
  progress: (accountId: string, kind: ResourceKind, count: number) => void;
  /** The keys an existing manifest gives what it binds, by account id, then `kind:id` (`boundKeys`): `generate --merge`. */
  fixedKeys?: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** Manifests and what they were made from, or why there are none. */
type GenerateResult = { error: string } | { manifests: GeneratedManifest[]; live: ReadonlyMap<string, LiveAccount>; reads: number };

/**
 * Reads the accounts and writes their manifests as text (nothing is written anywhere), with the
 * run's options; its clock dates the requests and the time the manifests say the accounts were read.
 */
export async function readAndGenerate(env: AccountEnvironment, request: GenerateRequest, options: RunOptions): Promise<GenerateResult> {
  const { name, source } = request.endpoint;
  const opened = await env.openEndpoint(name, join(request.root, '.adsctl'), { waitMs: options.lockTimeoutMs, connectTimeoutMs: options.connectTimeoutMs });
  if (typeof opened === 'string') return { error: source === 'environment' || source === 'flag' ? `${endpointSetting(source)}: ${opened}` : opened };
  const found = opened.builtInCredentials === undefined ? env.credentialsFor(name) : { credentials: opened.builtInCredentials, source: undefined };
  if (found === undefined) {
    await opened.close();
    return { error: noCredentials(name) };
  }
  const client = new ApiClient({
    endpoint: opened.endpoint,
    credentials: found.credentials,
    hints: runHints(request.endpoint, found.source),
    parallelism: options.parallelism,
    now: () => options.clock.now().getTime(),
    ...(env.onWait === undefined ? {} : { onWait: env.onWait }),
    ...(options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs }),
    ...(env.trace === undefined ? {} : { trace: env.trace }),
  });
  try {
    const api = new AdsApi(client);
    const reachable = (await api.accounts()).map((a) => String(a.id));
    const unknown = request.accountIds.filter((id) => !reachable.includes(id));
    if (unknown.length > 0) {
      return { error: `account ${unknown.join(', ')} cannot be reached with these credentials at ${name} (they reach ${reachable.length === 0 ? 'no account' : reachable.join(', ')})` };
    }
    const ids = request.accountIds.length > 0 ? [...new Set(request.accountIds)] : reachable;
    // the accounts are read at once, their requests in flight bounded by the client's parallelism
    const read = await Promise.all(ids.map((id) => fetchWholeAccount(api, id, id, GENERATE_READS, (kind, count) => request.progress(id, kind, count))));
    const live = new Map<string, LiveAccount>(ids.map((id, i) => [id, read[i]!.live]));
    const inputs = read.map((whole, i) => {
      const fixedKeys = request.fixedKeys?.get(ids[i]!);
      return { live: whole.live, unread: whole.unread, endpoint: name, schemaPath: request.schemaPath, readAt: options.clock.now(), ...(fixedKeys === undefined ? {} : { fixedKeys }) };
    });
    return { manifests: generateManifests(inputs), live, reads: client.counts.reads };
  } catch (error) {
    if (error instanceof ApiError) return { error: `cannot read the accounts at ${name}: ${error.describe()}` };
    throw error;
  } finally {
    await client.close();
    await opened.close();
  }
}

/**
 * The keys `desired`, an account's manifest, gives the live objects its state binds (the
 * checkpoint with the journal's outcomes) or its `import` entries name, by `kind:id`: what
 * `generate --merge` keeps, and the objects it does not add. What is wrong with the state, when
 * it cannot be read.
 */
export async function boundKeys(env: AccountEnvironment, root: string, endpoint: string, desired: DesiredAccount): Promise<Map<string, string> | string> {
  const store = await env.openStore(root);
  if (!('read' in store)) return store.message;
  try {
    const loaded = await loadState(store, desired.key, endpoint);
    if (typeof loaded === 'string') return loaded;
    const keys = new Map<string, string>();
    for (const r of desired.resources) {
      const last = r.address.steps.at(-1);
      const id = loaded.state.resources[formatAddress(r.address)]?.id ?? r.importId;
      if (last !== undefined && id !== undefined) keys.set(`${r.kind}:${id}`, last.key);
    }
    return keys;
  } finally {
    await store.close();
  }
}

/** One generated account to bind: its manifest as loaded, and where its state is. */
export interface GeneratedTarget {
  manifest: GeneratedManifest;
  desired: DesiredAccount;
  root: string;
  key: string;
}

/**
 * Binds every address of each generated manifest to its live object in the account's state (the
 * values read recorded as applied, as an import does) and writes the state, the accounts opened
 * with the run's options; the diagnostics of an account that could not be opened (a held lock)
 * when nothing was written.
 */
export async function bindGenerated(env: AccountEnvironment, endpoint: string, targets: readonly GeneratedTarget[], live: ReadonlyMap<string, LiveAccount>, options: RunOptions): Promise<string[]> {
  const sessions = await openAccounts(
    targets.map((t) => ({ key: t.key, root: t.root, endpoint, accountId: t.manifest.accountId, desired: t.desired })),
    env,
    options,
    'generate',
  );
  if (sessions.diagnostics.length > 0) return sessions.diagnostics.map((d) => d.message);
  try {
    for (const [i, session] of sessions.sessions.entries()) {
      const target = targets[i];
      if (target === undefined) continue;
      const byAddress = new Map(target.desired.resources.map((r) => [formatAddress(r.address), r]));
      const records = live.get(target.manifest.accountId);
      for (const b of target.manifest.bindings) {
        const record = records?.resources.get(b.kind)?.get(b.id)?.record;
        if (record === undefined) continue;
        session.state.resources[b.address] = importedEntry(b.kind, byAddress.get(b.address), record, b.id, options.clock.now().toISOString());
      }
      session.state.account_id = target.manifest.accountId;
      await session.store.write(session.state, 'generate');
    }
    return [];
  } finally {
    await sessions.close();
  }
}

/** An account's manifest with generated objects merged in, as it loads back (`mergeIntoManifest`). */
interface MergedManifest {
  text: string;
  /** The bindings of the objects added (with their children). */
  added: GeneratedBinding[];
  /** Objects not added, in words. */
  notAdded: string[];
  /** The account the merged text declares; undefined when it does not load. */
  desired: DesiredAccount | undefined;
  /** Objects added that the merged text, loaded back, does not declare: none, unless adsctl has a bug. */
  missing: GeneratedBinding[];
  diagnostics: Diagnostic[];
  sources: Map<string, string>;
}

/**
 * `generate --merge` for one account: the objects of `manifest` that its existing manifest
 * (`into`, with the keys it gives what it binds: `boundKeys`) binds none of, added to the file's
 * text (src/generate/merge.ts), and the result loaded back at the file's own path, as the file
 * will read, before anything is written. An error, naming the line, where the file cannot take
 * them.
 */
export function mergeIntoManifest(into: { file: string; text: string; keys: ReadonlyMap<string, string> }, manifest: GeneratedManifest, env: Readonly<Record<string, string | undefined>>): MergedManifest | { error: string } {
  const result = mergeManifest(into.text, manifest, new Set(into.keys.keys()));
  if ('error' in result) return result;
  const loaded = loadManifestSources([{ file: into.file, text: result.text }], { env });
  const desired = loaded.value?.accounts[0];
  const declared = new Set(desired?.resources.map((r) => formatAddress(r.address)) ?? []);
  return { ...result, desired, missing: result.added.filter((b) => !declared.has(b.address)), diagnostics: loaded.diagnostics, sources: loaded.sources };
}
