/**
 * The version adsctl reports: the `version` field of the installed package's package.json, read
 * at run time so that a release changes one file only. The file is the nearest `package.json`
 * named `adsctl` above this module: two folders up both as source (`src/cli/`, under vitest) and
 * as build output (`dist/cli/`, run by `bin/adsctl.js`), three from the benchmarks' build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageJson(): { path: string; version: unknown } | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown; version?: unknown };
      if (parsed.name === 'adsctl') return { path, version: parsed.version };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The package's version, e.g. `0.1.0`; throws when no package.json gives one, which only a broken install can cause. */
export function packageVersion(): string {
  const found = packageJson();
  if (found === undefined || typeof found.version !== 'string' || found.version === '') throw new Error(`no package.json of adsctl with a version above ${fileURLToPath(import.meta.url)}`);
  return found.version;
}
