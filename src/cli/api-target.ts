/**
 * Where `adsctl api` sends its request: the endpoint a plan of the manifests at `--manifests` (the
 * current directory unless given) would use — `--endpoint`, else ADSCTL_ENDPOINT, else the
 * manifests' `endpoint:`, else `local` (src/api/endpoint-choice.ts) — and, for `local`, the
 * `.adsctl/` of the manifests' root, whose `emulator.json` is the embedded emulator's data, so a
 * change made by hand is the one the next plan of those manifests reads.
 */
import { join } from 'node:path';
import { chooseEndpoint, type EndpointChoice } from '../api/endpoint-choice.js';
import { redactUserinfo } from '../diag/redact.js';
import { findManifestFiles } from '../manifest/files.js';
import { loadManifests } from '../manifest/load.js';
import { givenDirectory, manifestRoot } from './root.js';

/** The endpoint chosen, and the directory `local` keeps its data in. */
interface ApiTarget {
  choice: EndpointChoice;
  /** The root's `.adsctl/` (used by `local` only). */
  dotDir: string;
}

/** The manifest files at `path` and their `endpoint:`s; only read when neither --endpoint nor ADSCTL_ENDPOINT decides. */
function manifestsAt(path: string, decided: boolean, env: NodeJS.ProcessEnv): { manifests: Array<{ file: string; endpoint?: string }> } | { problem: string } {
  const found = findManifestFiles(path);
  if (found.diagnostics.some((d) => d.code === 'path-not-found')) return { problem: `--manifests ${path} does not exist` };
  if (decided || found.files.length === 0) return { manifests: found.files.map((file) => ({ file })) };
  const loaded = loadManifests(path, { env });
  if (loaded.value === undefined) {
    return { problem: `the manifests at ${path} do not load, so their endpoint is unknown (adsctl validate ${path} says why); give the endpoint with --endpoint` };
  }
  return { manifests: loaded.value.accounts.map((a) => ({ file: a.file, ...(a.endpoint === undefined ? {} : { endpoint: a.endpoint }) })) };
}

/** The endpoint and data directory for manifests at `path`, or the one-line reason there is no single one. */
export function apiTarget(path: string, flag: string | undefined, env: NodeJS.ProcessEnv): ApiTarget | { problem: string } {
  const given = { flag, environment: env['ADSCTL_ENDPOINT'] };
  const run = chooseEndpoint(given);
  const read = manifestsAt(path, run.source !== 'default', env);
  if ('problem' in read) return read;
  const choices = read.manifests.map((m) => chooseEndpoint({ ...given, manifest: m.endpoint }));
  const names = [...new Set(choices.map((c) => c.name))];
  if (names.length > 1) {
    return { problem: `the manifests at ${path} name different endpoints (${names.map((n) => redactUserinfo(n)).join(', ')}): choose one with --endpoint, or give one manifest with --manifests` };
  }
  const choice = choices[0] ?? run;
  const directory = givenDirectory(path);
  const roots = [...new Set(read.manifests.map((m) => manifestRoot(m.file, directory)))].sort();
  if (choice.name === 'local' && roots.length > 1) {
    return { problem: `the manifests at ${path} keep their state, and the embedded emulator its data, in different directories (${roots.join(', ')}): give one of them with --manifests` };
  }
  const root = roots[0] ?? manifestRoot(join(directory, 'none'), directory);
  return { choice, dotDir: join(root, '.adsctl') };
}
