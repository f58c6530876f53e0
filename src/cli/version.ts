/**
 * The version adsctl reports: the `version` field of the installed package's package.json, read
 * at run time so that a release changes one file only. The file is found relative to this
 * module, which sits two folders below the package root both as source (`src/cli/`, under
 * vitest) and as build output (`dist/cli/`, run by `bin/adsctl.js`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

/** The package's version, e.g. `0.1.0`; throws when package.json has none, which only a broken install can cause. */
export function packageVersion(): string {
  const parsed = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: unknown };
  if (typeof parsed.version !== 'string' || parsed.version === '') throw new Error(`${fileURLToPath(PACKAGE_JSON)} has no version`);
  return parsed.version;
}
