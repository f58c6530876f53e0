/**
 * The yaml package, loaded the first time a run needs it. Most runs never do: manifests written
 * in the common subset of YAML are read by src/manifest/yaml-fast.ts, and a root without an
 * adsctl.yaml has no configuration to parse; loading yaml's seventy modules costs a small plan
 * about a tenth of its CPU. The package's Node build is CommonJS, so it loads synchronously here,
 * the same module instance an `import` of it gets.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/** The yaml package. */
export function yaml(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return loaded;
}
