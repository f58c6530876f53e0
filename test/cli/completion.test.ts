/**
 * Issue 9, point 10, and issue 23: `adsctl completion bash|zsh|fish` prints a completion script
 * made from the commands as defined. The bash script is run in a real bash, its completion
 * function called as bash calls it (COMP_WORDS, COMP_CWORD), the built adsctl on PATH, in a
 * directory of manifests and state whose addresses it completes; the zsh and fish scripts are
 * checked for what their shells need (neither shell is here to run them), and all for naming
 * every command.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.js';
import { runCli } from '../support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-completion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let bash = '';
let zsh = '';
let fish = '';

/** A directory of manifests (no state yet), and a `bin/adsctl` that runs the built CLI. */
const project = join(dir, 'project');
const bin = join(dir, 'bin');
const MANIFEST = `version: 1
endpoint: local
account:
  name: Completion
funding_instruments:
  main: { type: CREDIT_CARD, currency: USD, start_time: 2026-01-01T00:00:00Z }
campaigns:
  summer:
    name: Summer
    funding_instrument: main
    daily_budget: "5.00"
    line_items:
      us:
        name: US
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount: "1.50"
  winter: { name: Winter, funding_instrument: main, daily_budget: "5.00" }
`;

beforeAll(async () => {
  const [b, z, f] = await Promise.all([runCli(['completion', 'bash']), runCli(['completion', 'zsh']), runCli(['completion', 'fish'])]);
  expect(b.code, b.stderr).toBe(0);
  expect(z.code, z.stderr).toBe(0);
  expect(f.code, f.stderr).toBe(0);
  bash = b.stdout;
  zsh = z.stdout;
  fish = f.stdout;
  writeFileSync(join(dir, 'adsctl.bash'), bash);
  mkdirSync(project);
  writeFileSync(join(project, 'account.yaml'), MANIFEST);
  mkdirSync(bin);
  writeFileSync(join(bin, 'adsctl'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(join(bin, 'adsctl'), 0o755);
});

/** What the bash completion offers for the command line `words`, the cursor on the last word, in `cwd`. */
function complete(words: string[], cwd = dir): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const script = `source ${JSON.stringify(join(dir, 'adsctl.bash'))}\nCOMP_WORDS=(${quoted})\nCOMP_CWORD=${words.length - 1}\n_adsctl\nprintf '%s\\n' "\${COMPREPLY[@]}"`;
  const run = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8', cwd, env: { PATH: `${bin}:${process.env['PATH'] ?? ''}`, HOME: dir } });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter((w) => w !== '');
}

describe('adsctl completion bash', () => {
  it('is valid bash that registers _adsctl for adsctl', () => {
    const run = spawnSync('bash', ['--norc', '--noprofile', '-c', `source ${JSON.stringify(join(dir, 'adsctl.bash'))} && complete -p adsctl`], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('complete -o default -F _adsctl adsctl');
  });

  it.each([
    [['adsctl', ''], ['validate', 'plan', 'apply', 'destroy', 'show', 'import', 'generate', 'state', 'force-unlock', 'auth', 'api', 'insights', 'emulator', 'completion', 'help']],
    [['adsctl', 'pl'], ['plan']],
    [['adsctl', '--v'], ['--version']],
    [['adsctl', 'plan', '--de'], ['--detailed-exitcode', '--destroy', '--debug']],
    [['adsctl', 'plan', '--refresh'], ['--refresh-only']],
    [['adsctl', 'plan', '.', '--out', 'p', '--con'], ['--connect-timeout']],
    [['adsctl', 'apply', '--auto'], ['--auto-approve']],
    [['adsctl', 'state', ''], ['list', 'show', 'rm', 'mv', 'history', 'pull', 'push', 'migrate']],
    [['adsctl', 'state', 'mv', '--'], ['--path', '--account', '--lock-timeout', '--help']],
    [['adsctl', 'auth', 'w'], ['whoami']],
    [['adsctl', 'completion', ''], ['bash', 'zsh', 'fish']],
    [['adsctl', 'api', ''], ['GET', 'POST', 'PUT', 'DELETE']],
    [['adsctl', 'api', 'GET', '/12/accounts', '--a'], ['--as']],
    [['adsctl', 'completion', 'bash', ''], []],
    [['adsctl', 'plan', ''], []],
    [['adsctl', 'show', 'x.plan', '--m'], ['--markdown']],
  ])('offers for %j: %j', (words, offered) => {
    expect(complete(words).sort()).toEqual([...offered].sort());
  });
});

const ADDRESSES = ['campaigns.summer', 'campaigns.summer.line_items.us', 'campaigns.winter', 'funding_instruments.main'];

describe('bash completes resource addresses from the manifests of the current directory', () => {
  it.each([
    [['adsctl', 'state', 'mv', ''], ADDRESSES],
    [['adsctl', 'state', 'mv', 'campaigns.s'], ['campaigns.summer', 'campaigns.summer.line_items.us']],
    [['adsctl', 'state', 'mv', 'campaigns.winter', 'campaigns.w'], ['campaigns.winter']],
    [['adsctl', 'state', 'mv', 'campaigns.winter', 'campaigns.autumn', ''], []],
    [['adsctl', 'state', 'mv', '--path', '.', 'campaigns.w'], ['campaigns.winter']],
    [['adsctl', 'state', 'rm', 'campaigns.winter', 'fund'], ['funding_instruments.main']],
    [['adsctl', 'state', 'show', 'campaigns.summer.'], ['campaigns.summer.line_items.us']],
    [['adsctl', 'state', 'show', '--path', ''], []],
    [['adsctl', 'import', 'campaigns.w'], ['campaigns.winter']],
    [['adsctl', 'import', 'campaigns.winter', ''], []],
    [['adsctl', 'plan', '--target', 'campaigns.w'], ['campaigns.winter']],
    [['adsctl', 'apply', '-target', 'campaigns.w'], ['campaigns.winter']],
    [['adsctl', 'destroy', '.', '--target', ''], ADDRESSES],
    [['adsctl', 'plan', '--out', ''], []],
    [['adsctl', 'state', 'mv', '--l'], ['--lock-timeout']],
  ])('offers for %j: %j', (words, offered) => {
    expect(complete(words, project).sort()).toEqual([...offered].sort());
  });

  it('offers the addresses the state binds too, quoted for the shell', async () => {
    const state = await runCli(['completion', 'addresses'], { cwd: project });
    expect(state).toMatchObject({ code: 0, stderr: '' });
    expect(state.stdout.split('\n').filter((l) => l !== '')).toEqual(ADDRESSES);
    const other = join(dir, 'bound');
    mkdirSync(join(other, '.adsctl', 'state'), { recursive: true });
    writeFileSync(join(other, 'account.yaml'), MANIFEST.replace('  winter: { name: Winter, funding_instrument: main, daily_budget: "5.00" }\n', ''));
    const bound = { format_version: 1, account: 'account.yaml', endpoint: 'local', serial: 1, resources: { 'campaigns.spring': { kind: 'campaign', id: 'c9', applied: {} }, 'campaigns.summer.line_items.us.promoted_posts["1346184843436720128"]': { kind: 'promoted_post', id: 'p1', applied: {} } } };
    writeFileSync(join(other, '.adsctl', 'state', 'account.yaml.json'), JSON.stringify(bound));
    const listed = await runCli(['state', 'list'], { cwd: other });
    expect(listed.code, listed.stderr).toBe(0);
    const offered = complete(['adsctl', 'state', 'rm', 'campaigns.s'], other);
    expect(offered.sort()).toEqual(['campaigns.spring', 'campaigns.summer', 'campaigns.summer.line_items.us', 'campaigns.summer.line_items.us.promoted_posts\\[\\"1346184843436720128\\"\\]'].sort());
  });

  it('offers nothing, and says nothing, where no manifest loads', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(complete(['adsctl', 'state', 'mv', ''], empty)).toEqual([]);
    const run = await runCli(['completion', 'addresses'], { cwd: empty });
    expect(run).toMatchObject({ code: 0, stdout: '' });
  });
});

describe('adsctl completion', () => {
  it('refuses another shell in one line', async () => {
    const run = await runCli(['completion', 'tcsh']);
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: "Error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish; see adsctl completion --help\n" });
  });

  it('does not list the helper the scripts call', async () => {
    const help = await runCli(['completion', '--help']);
    expect(help.stdout).not.toContain('addresses');
    expect(complete(['adsctl', 'completion', 'a'])).toEqual([]);
  });
});

describe('adsctl completion fish', () => {
  it('completes commands, options, values and addresses with fish complete lines', () => {
    expect(fish.startsWith('# fish completion for adsctl')).toBe(true);
    expect(fish).toContain('complete -c adsctl -f\n');
    expect(fish).toContain(`complete -c adsctl -n '__adsctl_at "" 1 ""' -a 'plan' -d 'show what apply would change in the live accounts'`);
    expect(fish).toContain(`complete -c adsctl -n '__adsctl_at "plan"' -l 'refresh-only'`);
    expect(fish).toContain(`complete -c adsctl -n '__adsctl_at "completion" 1 ""' -a 'fish'`);
    expect(fish).toContain(`complete -c adsctl -n '__adsctl_at "state mv" 2 "--path -path --account -account --lock-timeout -lock-timeout"' -a '(__adsctl_addresses)'`);
    expect(fish).toContain(`complete -c adsctl -n '__adsctl_at "state rm" -1 `);
    expect(fish).toContain(`complete -c adsctl -n '__adsctl_at "plan"; and __adsctl_after --target -target' -a '(__adsctl_addresses)'`);
    expect(fish).toContain('completion addresses 2>/dev/null');
  });

  it('has balanced blocks: every function and if ends', () => {
    const opened = fish.split('\n').filter((l) => /^\s*(function|if|for|switch)\b/.test(l)).length;
    const ended = fish.split('\n').filter((l) => /^\s*end$/.test(l)).length;
    expect(ended).toBe(opened);
  });
});

describe('adsctl completion zsh', () => {
  it('is a #compdef script that registers itself when sourced', () => {
    expect(zsh.startsWith('#compdef adsctl\n')).toBe(true);
    expect(zsh).toContain('compdef _adsctl adsctl');
    expect(zsh).toContain('_describe -t commands');
    expect(zsh).toContain("'plan:show what apply would change in the live accounts'");
    expect(zsh).toContain("'--refresh-only:show only what changed outside adsctl; plan no writes'");
  });

  it('asks adsctl for the addresses where a command takes one', () => {
    expect(zsh).toContain('completion addresses 2>/dev/null');
    expect(zsh).toContain("'state mv') ");
    expect(zsh).toContain('compadd -a addrs');
  });

  it.each([['validate'], ['plan'], ['apply'], ['destroy'], ['show'], ['import'], ['generate'], ['state'], ['force-unlock'], ['auth'], ['api'], ['insights'], ['emulator'], ['completion']])('names %s in every script', (command) => {
    expect(bash).toMatch(new RegExp(`\\b${command}\\b`));
    expect(zsh).toMatch(new RegExp(`'${command}:`));
    expect(fish).toContain(`-a '${command}'`);
  });
});
