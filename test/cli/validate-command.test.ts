import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { registerValidate } from '../../src/cli/validate-command.js';

const golden = (name: string): string => fileURLToPath(new URL(`../golden/validate/${name}`, import.meta.url));

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t), env } as Io;
  let code = 0;
  const program = new Command('adsctl').exitOverride();
  registerValidate(program, (c) => (code = c), io);
  await program.parseAsync(args, { from: 'user' });
  return { code, out, err };
}

describe('adsctl validate', () => {
  it('prints a one-line summary and exits 0 for valid manifests', async () => {
    const result = await run(['validate', golden('directory-of-accounts')]);
    expect(result).toEqual({ code: 0, out: 'Success! 14 resources in 2 files (2 accounts) are valid.\n', err: '' });
  });

  it('uses the environment for ${env:NAME}', async () => {
    const env = { ADSCTL_TEST_ENDPOINT: 'sandbox', ACCOUNT_ID: 'a1', REGION_NAME: 'EU', YEAR: '2026', DAILY_BUDGET: '1', FREQUENCY_CAP: '2' };
    expect((await run(['validate', golden('anchors-and-env')], env)).code).toBe(0);
    const unset = await run(['validate', golden('anchors-and-env')]);
    expect(unset.code).toBe(1);
    expect(unset.err).toContain('error env-unset: environment variable ADSCTL_TEST_ENDPOINT is not set');
  });

  it('prints every diagnostic with its source line, a count, and exits 1', async () => {
    const dir = golden('many-problems-in-order');
    const result = await run(['validate', dir]);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    const lines = result.err.split('\n');
    expect(lines[0]).toBe(`${dir}/one.yaml:8:25: error unknown-reference: funding_instrument "nope" does not exist: it is not defined under funding_instruments`);
    expect(lines[1]).toBe('  8 |     funding_instrument: nope');
    expect(lines[2]).toBe('    |                         ^^^^');
    expect(result.err.endsWith('\n6 errors in 2 files.\n')).toBe(true);
  });

  it('checks the guardrails of adsctl.yaml, each bad setting at its position', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adsctl-validate-guardrails-'));
    try {
      cpSync(golden('directory-of-accounts'), dir, { recursive: true });
      writeFileSync(join(dir, 'adsctl.yaml'), 'guardrails:\n  max_daily_budget: "1,000"\n  names: { campaigns: "([" }\n  max_spend: "5.00"\n');
      const result = await run(['validate', dir]);
      expect(result.code).toBe(1);
      expect(result.out).toBe('');
      const located = result.err.split('\n').filter((line) => /adsctl\.yaml:\d+:\d+: error/.test(line));
      expect(located.map((line) => line.replace(/^.*adsctl\.yaml:/, '').replace(/: error ([a-z-]+):.*$/, ' $1'))).toEqual(['2:21 guardrails-number', '3:23 guardrails-regex', '4:3 guardrails-rule']);
      writeFileSync(join(dir, 'adsctl.yaml'), 'guardrails:\n  max_daily_budget: "1000.00"\n');
      expect((await run(['validate', dir])).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a path that does not exist', async () => {
    const result = await run(['validate', golden('does-not-exist')]);
    expect(result.code).toBe(1);
    expect(result.err).toBe(`error path-not-found: ${golden('does-not-exist')} does not exist\n\n1 error.\n`);
  });
});

describe('adsctl validate: the headers of member files, as plan reads them', () => {
  const manifest = (users: string): string =>
    `version: 1\nendpoint: sandbox\naccount:\n  id: "18ce54d4x5t"\ncustom_audiences:\n  newsletter:\n    name: Newsletter\n    users: ${users}\ndo_not_reach:\n  users: { file: data/opt-outs.csv }\n`;

  /** validate of a manifest whose audience reads `data/members.csv` holding `csv` (the do-not-reach list's file is sound). */
  async function validateWith(csv: string, users = '{ file: data/members.csv }'): Promise<{ code: number; out: string; err: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'adsctl-validate-members-'));
    try {
      mkdirSync(join(dir, 'data'));
      writeFileSync(join(dir, 'account.yaml'), manifest(users));
      writeFileSync(join(dir, 'data', 'members.csv'), csv);
      writeFileSync(join(dir, 'data', 'opt-outs.csv'), 'email,phone_number\nann@example.com,\n');
      return await run(['validate', dir]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it.each([
    { name: 'a misspelt type', csv: 'emial\nann@example.com\n', at: '1:1', says: 'the first line names no identifier type' },
    { name: 'a type named twice', csv: 'email,handle,email\nann@example.com,ann,\n', at: '1:14', says: 'the header names email twice (columns 1 and 3)' },
    { name: 'an empty column', csv: 'email,\nann@example.com,\n', at: '1:7', says: 'column 2 of the header is empty' },
    { name: 'an empty file', csv: '', at: '1:1', says: 'the member file data/members.csv is empty' },
  ])('refuses $name with exactly one error, at the file, line and column', async ({ csv, at, says }) => {
    const result = await validateWith(csv);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    const errors = result.err.split('\n').filter((line) => /: error /.test(line));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^data/members\\.csv:${at}: error audience-file-header: `));
    expect(errors[0]).toContain(says);
    expect(result.err).toMatch(/\n1 error in 1 file\.\n$/);
  });

  it.each([
    { name: 'a sound header, whatever the identifiers', csv: 'EMAIL , handle\nnot-an-email,@ann\n', users: undefined },
    { name: 'a file of one identifier a line, which has no header', csv: 'ann@example.com\n', users: '{ file: data/members.csv, type: email }' },
  ])('passes $name', async ({ csv, users }) => {
    const result = await validateWith(csv, users);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
  });
});
