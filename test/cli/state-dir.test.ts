/**
 * Every `adsctl state …` subcommand, and `force-unlock`, takes the manifests' path the same ways:
 * DIR after its own arguments, or `--path DIR` (`state history accounts` was refused while `state
 * list accounts` worked). Each subcommand runs on its own copy of one applied project, once with
 * DIR and once with --path, from the project's parent, and says the same; DIR and --path that
 * disagree are refused.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcript } from '../support/e2e.js';
import { runCli, type CliRun } from '../support/run-cli.js';

const MANIFEST = `version: 1
endpoint: local
account:
  name: State paths
funding_instruments:
  card: { type: CREDIT_CARD, currency: USD, start_time: 2026-01-01T00:00:00Z }
campaigns:
  spring:
    name: Spring
    funding_instrument: card
    daily_budget: "5.00"
    entity_status: PAUSED
`;

let base: string;
/** The applied project: `<template>/accounts/account.yaml` with its state. */
let template: string;
const env = { NO_COLOR: '1', XDG_CONFIG_HOME: '/nonexistent' };

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'adsctl-state-dir-'));
  template = join(base, 'template');
  const accounts = join(template, 'accounts');
  mkdirSync(accounts, { recursive: true });
  writeFileSync(join(accounts, 'account.yaml'), MANIFEST);
  const apply = await runCli(['apply', 'accounts', '--auto-approve'], { env, cwd: template });
  expect(apply.code, transcript(apply)).toBe(0);
  const pulled = await runCli(['state', 'pull', '--path', 'accounts'], { env, cwd: template });
  expect(pulled.code, transcript(pulled)).toBe(0);
  // a newer copy of the state, for push
  const state = JSON.parse(pulled.stdout) as { serial: number };
  writeFileSync(join(template, 'newer.json'), JSON.stringify({ ...state, serial: state.serial + 1 }));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

let copies = 0;
/** Runs `args` with the path given as `form` in a fresh copy of the applied project; paths of the copy read as `<project>`. */
async function runIn(form: 'dir' | 'path', args: readonly string[], after: readonly string[]): Promise<CliRun> {
  const copy = join(base, `copy-${++copies}`);
  cpSync(template, copy, { recursive: true });
  const where = form === 'dir' ? ['accounts'] : ['--path', 'accounts'];
  const run = await runCli([...args, ...where, ...after], { env, cwd: copy });
  const plain = (text: string): string => text.split(copy).join('<project>');
  return { code: run.code, stdout: plain(run.stdout), stderr: plain(run.stderr) };
}

describe('every state subcommand takes DIR and --path alike', () => {
  const cases: Array<{ command: string[]; after?: string[]; code: number; says: RegExp }> = [
    { command: ['state', 'list'], code: 0, says: /^campaigns\.spring\t\S+$/m },
    { command: ['state', 'show', 'campaigns.spring'], code: 0, says: /"address": "campaigns\.spring"/ },
    { command: ['state', 'rm', 'campaigns.spring'], code: 0, says: /Removed 1 address from the state/ },
    { command: ['state', 'rm', 'campaigns.spring', 'funding_instruments.card'], code: 0, says: /Removed 2 addresses from the state/ },
    { command: ['state', 'mv', 'campaigns.spring', 'campaigns.autumn'], code: 0, says: /Moved campaigns\.spring to campaigns\.autumn/ },
    { command: ['state', 'history'], code: 0, says: /^SERIAL\s+WRITTEN AT/m },
    { command: ['state', 'pull'], code: 0, says: /"resources": \{/ },
    { command: ['state', 'push', 'newer.json'], code: 0, says: /Pushed the state of account \S+ \(serial \d+\)/ },
    { command: ['state', 'migrate'], after: ['--from', 'postgres'], code: 1, says: /postgres/i },
    { command: ['force-unlock', 'no-such-lock'], code: 1, says: /no lock with id no-such-lock/ },
  ];
  it.each(cases.map((c) => ({ ...c, name: [...c.command, 'DIR', ...(c.after ?? [])].join(' ') })))('adsctl $name', async ({ command, after = [], code, says }) => {
    const withDir = await runIn('dir', command, after);
    const withPath = await runIn('path', command, after);
    expect(withDir.code, transcript(withDir)).toBe(code);
    expect(`${withDir.stdout}${withDir.stderr}`).toMatch(says);
    expect(withDir.stderr).not.toMatch(/too many arguments/);
    expect(withPath).toEqual(withDir);
  });

  it('refuses DIR and --path that name two places, in one line', async () => {
    const run = await runIn('dir', ['state', 'history'], ['--path', 'elsewhere']);
    expect(run.code, transcript(run)).toBe(1);
    expect(run.stderr).toBe(`Error: the manifests' path is given twice, as "accounts" and as --path "elsewhere": give one of them\n`);
  });
});
