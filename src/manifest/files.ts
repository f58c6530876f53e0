/**
 * Finding manifest files: a path names one file, or a directory searched recursively for
 * `*.yaml` and `*.yml` (hidden directories such as `.adsctl` and `.git`, and `node_modules`,
 * are skipped, and so is `adsctl.yaml`, the state configuration of a root). Paths keep the form the user gave, so diagnostics show familiar names.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';

const MANIFEST = /\.ya?ml$/i;
/** The configuration file of a root (src/state/config.ts), which is not a manifest. */
const CONFIG = 'adsctl.yaml';

function walk(dir: string, out: string[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const names = entries.filter((e) => !e.name.startsWith('.') && e.name !== 'node_modules').sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of names) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if ((entry.isFile() || entry.isSymbolicLink()) && MANIFEST.test(entry.name) && entry.name !== CONFIG) out.push(path);
  }
}

/** The manifest files at `path`, sorted, or a diagnostic when there are none. */
export function findManifestFiles(path: string): { files: string[]; diagnostics: Diagnostic[] } {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    return { files: [], diagnostics: [errorAt('path-not-found', `${path} does not exist`)] };
  }
  if (!isDirectory) return { files: [path], diagnostics: [] };
  const files: string[] = [];
  walk(path, files);
  if (files.length === 0) return { files, diagnostics: [errorAt('no-manifests', `no *.yaml or *.yml files under ${path}`)] };
  return { files, diagnostics: [] };
}
