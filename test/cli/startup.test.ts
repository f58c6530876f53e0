/**
 * Issue 9, point 10, start-up: `adsctl --version` and `adsctl --help` load the command line's own
 * few modules (and the table of endpoint names, to check ADSCTL_ENDPOINT) and commander, not the
 * code of any command (the emulator, the HTTP client, the manifest loader, the renderers, ...);
 * a plan loads the emulator, the PostgreSQL driver, phone numbering and yaml only when it needs
 * them.
 * Counted by a module-loading hook in the child, not timed, so
 * the test does not depend on the machine; the time is measured by `npm run bench` (startup).
 * The command line runs bundled (scripts/bundle.mjs): a run loads chunks of dist/bundle/, and
 * `dist/bundle/modules.json` says which source modules (and bundled packages) each chunk holds,
 * so what is checked is still which sources a run loaded.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, 'hook.mjs'),
  `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.ADSCTL_TEST_LOADED, url + '\\n');
  return next(url, context);
}
`,
);
// packages required as CommonJS too (a package's Node build, required when first needed), logged to the same file
writeFileSync(
  join(dir, 'require-hook.cjs'),
  `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const load = Module._load;
Module._load = function (request) {
  // a package required by name, as /node_modules/NAME/ like the ESM hook's URLs
  if (!request.startsWith('.') && !request.startsWith('/') && !request.startsWith('node:')) appendFileSync(process.env.ADSCTL_TEST_LOADED, '/node_modules/' + request + '/\\n');
  return load.apply(this, arguments);
};
`,
);
writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hook.mjs')).href)});\n`);

const repository = dirname(dirname(BIN));
const root = pathToFileURL(repository).href;
const bundle = `${root}/dist/bundle/`;

/** The source modules and bundled package files of each chunk of the bundle, by file name. */
const chunks = JSON.parse(readFileSync(join(repository, 'dist', 'bundle', 'modules.json'), 'utf8')) as Record<string, string[]>;

/** The stages behind the commands: none of them is needed to print the version or the help. */
const COMMAND_CODE = /^src\/(api\/(?!endpoints\.ts)|emulator|manifest|schema|graph|kinds|live|diff|plan|apply|state|render)\//;

const packageOf = (path: string): string => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length).split('/')[0]!;

/**
 * What the loaded `urls` hold: the package's own files (a chunk of the bundle as the source modules
 * in it, any other file as its path) and the packages, bundled in a chunk or loaded from node_modules.
 */
function contents(urls: readonly string[]): { ours: string[]; dependencies: string[] } {
  const ours: string[] = [];
  const packages: string[] = [];
  for (const url of urls) {
    if (url.includes('/node_modules/')) packages.push(packageOf(url));
    else if (url.startsWith(bundle) && url.slice(bundle.length) in chunks) {
      for (const path of chunks[url.slice(bundle.length)]!) (path.includes('node_modules/') ? packages.push(packageOf(path)) : ours.push(path));
    } else if (url.startsWith(root)) ours.push(url.slice(root.length + 1));
  }
  return { ours, dependencies: [...new Set(packages)].sort() };
}

/** The modules of the package (as paths below it) and its dependencies a run of `args` loads. */
function loaded(args: string[], name: string): { ours: string[]; dependencies: string[]; run: ReturnType<typeof spawnSync> } {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, BIN, ...args], { encoding: 'utf8', env: { ...process.env, ADSCTL_TEST_LOADED: log } });
  return { ...contents(readFileSync(log, 'utf8').split('\n')), run };
}

describe('adsctl start-up', () => {
  it.each([
    ['--version', ['--version'], 0],
    ['--help', ['--help'], 0],
    ['bare adsctl', [], 1],
  ])('%s loads only the command line itself and commander', (name, args, code) => {
    const { ours, dependencies, run } = loaded(args, name.replace(/\W/g, ''));
    expect(run.status, String(run.stderr)).toBe(code);
    expect(dependencies).toEqual(['commander']);
    expect(ours.filter((p) => COMMAND_CODE.test(p))).toEqual([]);
    // the command line's own modules and the few small ones it shares a chunk with (the clock, redaction)
    expect(ours.length, ours.join('\n')).toBeLessThanOrEqual(15);
  });

  it('loads a command only when it runs', () => {
    const { ours } = loaded(['validate', '--help'], 'validate');
    expect(ours).toContain('src/cli/validate-command.ts');
    expect(ours).not.toContain('src/cli/plan-command.ts');
    expect(ours.some((p) => p.startsWith('src/emulator/'))).toBe(false);
  });
});

describe('what a plan loads', () => {
  it('loads neither the emulator, nor the PostgreSQL driver, nor phone numbering, nor yaml, for an account on a remote endpoint without audiences or adsctl.yaml', () => {
    const manifests = join(dir, 'remote');
    mkdirSync(manifests);
    writeFileSync(join(manifests, 'account.yaml'), 'version: 1\nendpoint: http://127.0.0.1:9\naccount: { id: 18ce54d4x5t }\ncampaigns: {}\n');
    const log = join(dir, 'remote.log');
    writeFileSync(log, '');
    const env = { ...process.env, ADSCTL_TEST_LOADED: log, ADSCTL_CONSUMER_KEY: 'k', ADSCTL_CONSUMER_SECRET: 's', ADSCTL_ACCESS_TOKEN: 't', ADSCTL_ACCESS_TOKEN_SECRET: 'ts' };
    const run = spawnSync(process.execPath, ['--require', join(dir, 'require-hook.cjs'), '--import', pathToFileURL(join(dir, 'register.mjs')).href, BIN, 'plan', manifests, '--connect-timeout', '0'], { encoding: 'utf8', env });
    // the refresh cannot connect: the run got as far as it can
    expect(run.stderr).toContain('127.0.0.1:9');
    const { ours, dependencies } = contents(readFileSync(log, 'utf8').split('\n'));
    expect(ours).toContain('src/engine/plan-accounts.ts');
    expect(ours.filter((p) => /^src\/(emulator|state\/postgres)\//.test(p))).toEqual([]);
    expect(dependencies.filter((p) => ['pg', 'libphonenumber-js', 'yaml'].includes(p))).toEqual([]);
    // the hooks see what they should: the HTTP client's package, bundled, and the compiled
    // manifest validator's runtime, required as CommonJS from node_modules
    expect(dependencies).toContain('undici');
    expect(dependencies).toContain('ajv');
  });

  it('loads yaml for a manifest beyond the common subset of YAML (an anchor)', () => {
    const manifests = join(dir, 'anchored');
    mkdirSync(manifests);
    writeFileSync(join(manifests, 'account.yaml'), 'version: 1\nendpoint: http://127.0.0.1:9\naccount: { id: 18ce54d4x5t }\nx-name: &name Anchored\ncampaigns: {}\n');
    const log = join(dir, 'anchored.log');
    writeFileSync(log, '');
    const run = spawnSync(process.execPath, ['--require', join(dir, 'require-hook.cjs'), BIN, 'validate', manifests], { encoding: 'utf8', env: { ...process.env, ADSCTL_TEST_LOADED: log } });
    expect(run.status, String(run.stderr)).toBe(0);
    expect(readFileSync(log, 'utf8').split('\n').some((u) => u.includes('/node_modules/yaml/'))).toBe(true);
  });
});
