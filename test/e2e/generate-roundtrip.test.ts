/**
 * `adsctl generate`'s refusals of its DIR, checks the command itself makes around the engine's
 * read (docs/architecture.md, "Contracts the code relies on"): exit 1, one line, nothing written —
 * among them a DIR where another manifest already describes the account, which would stop every
 * plan. The round trip itself (generate, then plan: no change, no write) and the refusal of an
 * account the credentials cannot reach are test/engine/generate-roundtrip.test.ts.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adsctl, closeEmulated, emulated, removeScratch, scratch, type Emulated } from '../support/round-trip.js';

const ACCOUNT = '18ce54d4x5t';

let shared: Emulated;
beforeAll(async () => {
  shared = await emulated();
});
afterAll(async () => {
  await closeEmulated(shared);
  removeScratch();
});

describe('bad input: one line, exit 1, nothing written', () => {
  it('a manifest in DIR that already describes the account, with or without --force', async () => {
    const dir = scratch();
    const acme = `version: 1\nendpoint: local\naccount:\n  id: "${ACCOUNT}"\nfunding_instruments:\n  main: { id: lygyi }\n`;
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out', 'acme.yaml'), acme);
    for (const force of [[], ['--force']]) {
      const run = await adsctl(shared, dir, ['generate', 'out', '--account', ACCOUNT, ...force], 1);
      expect(run.stderr.trim().split('\n').filter((l) => !l.startsWith('Read '))).toEqual([
        expect.stringMatching(new RegExp(`^Error: out/acme\\.yaml already describes account ${ACCOUNT}: .*\\(duplicate-account\\), so nothing was written\\. .*: adsctl generate out --account ${ACCOUNT} --merge$`)),
      ]);
      expect(readdirSync(join(dir, 'out'))).toEqual(['acme.yaml']);
      expect(readFileSync(join(dir, 'out', 'acme.yaml'), 'utf8')).toBe(acme);
      expect(existsSync(join(dir, 'out', '.adsctl'))).toBe(false);
    }
  });

  it('a DIR that is a file', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'file.yaml'), 'x: 1\n');
    const run = await adsctl(shared, dir, ['generate', 'file.yaml', '--account', ACCOUNT], 1);
    expect(run.stderr).toBe('Error: file.yaml is a file: generate writes one manifest per account into a directory\n');
    expect(readFileSync(join(dir, 'file.yaml'), 'utf8')).toBe('x: 1\n');
  });
});

