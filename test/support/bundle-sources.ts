/**
 * Source modules as one file a child process can import: the command line runs bundled
 * (scripts/bundle.mjs) and the build emits no module of its own, so a test that needs a few of
 * its functions in a real process of their own (signals, exit codes) bundles just those, from the
 * sources, the same way.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Bundles into `dir` one ES module that exports the named functions of each source module
 * (`{ 'src/cli/interrupt.ts': ['exitOnInterrupt'] }`); returns its file URL.
 */
export async function bundleSources(dir: string, exports: Readonly<Record<string, readonly string[]>>): Promise<string> {
  const entry = join(dir, 'entry.ts');
  writeFileSync(entry, Object.entries(exports).map(([module, names]) => `export { ${names.join(', ')} } from ${JSON.stringify(join(root, module))};\n`).join(''));
  await build({
    input: entry,
    cwd: root,
    platform: 'node',
    tsconfig: join(root, 'tsconfig.json'),
    external: (id) => id.startsWith('node:') || !(id.startsWith('.') || id.startsWith('/')),
    logLevel: 'warn',
    output: { file: join(dir, 'bundle.js'), format: 'esm', codeSplitting: false },
  });
  return pathToFileURL(join(dir, 'bundle.js')).href;
}
