/**
 * Where `adsctl api` sends its request (src/cli/api-target.ts), as a table over directories of
 * manifests: the endpoint a plan of them would use (`--endpoint`, else ADSCTL_ENDPOINT, else their
 * `endpoint:`, else local), the `.adsctl/` of their root for local, and the one line that refuses
 * manifests naming two endpoints or two roots.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiTarget } from '../../src/cli/api-target.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-api-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const manifest = (endpoint: string | undefined): string =>
  `version: 1\n${endpoint === undefined ? '' : `endpoint: ${endpoint}\n`}account: { id: "18ce54d4x5t" }\nfunding_instruments:\n  main: { id: lygyi }\n`;

/** A directory `name` under the test's, holding `files` (path → text). */
function tree(name: string, files: Record<string, string>): string {
  const root = join(dir, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(root, { recursive: true });
  return root;
}

const local = tree('local', { 'account.yaml': manifest('local') });
const implicit = tree('implicit', { 'account.yaml': manifest(undefined) });
const remote = tree('remote', { 'account.yaml': manifest('http://127.0.0.1:9') });
const mixed = tree('mixed', { 'a.yaml': manifest('local'), 'b.yaml': manifest('production').replace('18ce54d4x5t', 'other') });
const roots = tree('roots', { 'one/.adsctl/state/.keep': '', 'one/account.yaml': manifest('local'), 'two/adsctl.yaml': 'state: { backend: local }\n', 'two/account.yaml': manifest('local').replace('18ce54d4x5t', 'other') });
const nested = tree('nested', { '.adsctl/state/.keep': '', 'accounts/account.yaml': manifest('local') });
const broken = tree('broken', { 'account.yaml': 'version: 2\nendpoint: production\n' });
const empty = tree('empty', {});

describe('apiTarget', () => {
  it.each<[string, string, string | undefined, Record<string, string>, { name: string; source: string; dotDir?: string }]>([
    ["the manifests' endpoint", local, undefined, {}, { name: 'local', source: 'manifest', dotDir: join(local, '.adsctl') }],
    ['local when the manifests name none', implicit, undefined, {}, { name: 'local', source: 'default', dotDir: join(implicit, '.adsctl') }],
    ["an emulator's URL from the manifests", remote, undefined, {}, { name: 'http://127.0.0.1:9', source: 'manifest' }],
    ['ADSCTL_ENDPOINT over the manifests', local, undefined, { ADSCTL_ENDPOINT: 'sandbox' }, { name: 'sandbox', source: 'environment' }],
    ['--endpoint over ADSCTL_ENDPOINT', local, 'production', { ADSCTL_ENDPOINT: 'sandbox' }, { name: 'production', source: 'flag' }],
    ['--endpoint over manifests that disagree, without reading them', mixed, 'local', {}, { name: 'local', source: 'flag', dotDir: join(mixed, '.adsctl') }],
    ['--endpoint over manifests that do not load', broken, 'sandbox', {}, { name: 'sandbox', source: 'flag' }],
    ['the root above the manifests, where .adsctl/ is', join(nested, 'accounts'), undefined, {}, { name: 'local', source: 'manifest', dotDir: join(nested, '.adsctl') }],
    ['one manifest file of several roots', join(roots, 'two', 'account.yaml'), undefined, {}, { name: 'local', source: 'manifest', dotDir: join(roots, 'two', '.adsctl') }],
    ['local in a directory without manifests', empty, undefined, {}, { name: 'local', source: 'default', dotDir: join(empty, '.adsctl') }],
  ])('%s', (_name, path, flag, env, expected) => {
    const target = apiTarget(path, flag, env);
    if ('problem' in target) throw new Error(target.problem);
    expect(target.choice).toEqual({ name: expected.name, source: expected.source });
    if (expected.dotDir !== undefined) expect(target.dotDir).toBe(expected.dotDir);
  });

  it.each<[string, string, string | undefined, string]>([
    ['manifests that name two endpoints', mixed, undefined, `the manifests at ${mixed} name different endpoints (local, production): choose one with --endpoint, or give one manifest with --manifests`],
    ['local manifests of two roots', roots, undefined, `the manifests at ${roots} keep their state, and the embedded emulator its data, in different directories (${join(roots, 'one')}, ${join(roots, 'two')}): give one of them with --manifests`],
    ['manifests that do not load', broken, undefined, `the manifests at ${broken} do not load, so their endpoint is unknown (adsctl validate ${broken} says why); give the endpoint with --endpoint`],
    ['a path that does not exist', join(dir, 'nowhere'), undefined, `--manifests ${join(dir, 'nowhere')} does not exist`],
  ])('refuses %s in one line', (_name, path, flag, problem) => {
    expect(apiTarget(path, flag, {})).toEqual({ problem });
  });
});
