import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestRoot, savedPlanRoot, stateRoots } from '../../src/cli/root.js';

const top = mkdtempSync(join(tmpdir(), 'adsctl-root-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

/** A repository: `repo/.git`, manifests in `accounts/` and `examples/a/`, state so far only in `examples/a/.adsctl`. */
const repo = join(top, 'repo');
for (const dir of ['.git', 'accounts/eu', 'examples/a/.adsctl', 'examples/b']) mkdirSync(join(repo, dir), { recursive: true });
for (const file of ['accounts/brand.yaml', 'accounts/eu/brand-eu.yaml', 'examples/a/account.yaml', 'examples/b/account.yaml']) writeFileSync(join(repo, file), 'version: 1\n');

describe('manifestRoot', () => {
  it.each([
    ['a manifest without .adsctl above it takes the directory given', 'accounts/brand.yaml', 'accounts', 'accounts'],
    ['... from wherever the command points', 'accounts/eu/brand-eu.yaml', '.', '.'],
    ['the nearest .adsctl at or above the manifest wins over the directory given', 'examples/a/account.yaml', '.', 'examples/a'],
    ['a sibling without one takes the directory given', 'examples/b/account.yaml', 'examples', 'examples'],
  ])('%s', (_name, file, given, root) => {
    expect(manifestRoot(join(repo, file), join(repo, given))).toBe(join(repo, root));
  });

  it('does not look above the top of the git repository', () => {
    mkdirSync(join(top, '.adsctl'), { recursive: true });
    expect(manifestRoot(join(repo, 'accounts/brand.yaml'), join(repo, 'accounts'))).toBe(join(repo, 'accounts'));
  });
});

describe('stateRoots', () => {
  it('gives the roots of the manifests under a path', () => {
    expect(stateRoots(join(repo, 'examples'))).toEqual([join(repo, 'examples'), join(repo, 'examples/a')]);
    expect(stateRoots(join(repo, 'examples/a/account.yaml'))).toEqual([join(repo, 'examples/a')]);
  });
});

describe('savedPlanRoot', () => {
  it.each([
    ['the root relative to the plan file, when it exists', { root: '/nowhere/accounts', rootFromPlanFile: 'accounts' }, join(repo, 'plan.bin'), join(repo, 'accounts')],
    ['else the absolute root', { root: join(repo, 'accounts'), rootFromPlanFile: 'gone' }, join(repo, 'plan.bin'), join(repo, 'accounts')],
    ['neither exists', { root: '/nowhere', rootFromPlanFile: 'gone' }, join(repo, 'plan.bin'), undefined],
    ['an old plan that records none: the plan file directory', {}, join(repo, 'accounts', 'plan.bin'), join(repo, 'accounts')],
  ])('%s', (_name, account, planFile, root) => {
    expect(savedPlanRoot(account, planFile)).toBe(root);
  });
});
