/**
 * Issue 9, point 10: `adsctl completion bash|zsh` prints a completion script made from the
 * commands as defined. The bash script is run in a real bash, its completion function called as
 * bash calls it (COMP_WORDS, COMP_CWORD); the zsh script is checked for what zsh needs (no zsh
 * here to run it), and both for naming every command.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-completion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let bash = '';
let zsh = '';

beforeAll(async () => {
  const [b, z] = await Promise.all([runCli(['completion', 'bash']), runCli(['completion', 'zsh'])]);
  expect(b.code, b.stderr).toBe(0);
  expect(z.code, z.stderr).toBe(0);
  bash = b.stdout;
  zsh = z.stdout;
  writeFileSync(join(dir, 'adsctl.bash'), bash);
});

/** What the bash completion offers for the command line `words`, the cursor on the last word. */
function complete(words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const script = `source ${JSON.stringify(join(dir, 'adsctl.bash'))}\nCOMP_WORDS=(${quoted})\nCOMP_CWORD=${words.length - 1}\n_adsctl\nprintf '%s\\n' "\${COMPREPLY[@]}"`;
  const run = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8' });
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
    [['adsctl', ''], ['validate', 'plan', 'apply', 'destroy', 'show', 'import', 'generate', 'state', 'force-unlock', 'auth', 'insights', 'emulator', 'completion', 'help']],
    [['adsctl', 'pl'], ['plan']],
    [['adsctl', '--v'], ['--version']],
    [['adsctl', 'plan', '--de'], ['--detailed-exitcode', '--destroy', '--debug']],
    [['adsctl', 'plan', '--refresh'], ['--refresh-only']],
    [['adsctl', 'plan', '.', '--out', 'p', '--con'], ['--connect-timeout']],
    [['adsctl', 'apply', '--auto'], ['--auto-approve']],
    [['adsctl', 'state', ''], ['list', 'show', 'rm', 'mv', 'history', 'pull', 'push', 'migrate']],
    [['adsctl', 'state', 'mv', '--'], ['--path', '--account', '--lock-timeout', '--help']],
    [['adsctl', 'auth', 'w'], ['whoami']],
    [['adsctl', 'completion', ''], ['bash', 'zsh']],
    [['adsctl', 'completion', 'bash', ''], []],
    [['adsctl', 'plan', ''], []],
    [['adsctl', 'show', 'x.plan', '--m'], ['--markdown']],
  ])('offers for %j: %j', (words, offered) => {
    expect(complete(words).sort()).toEqual([...offered].sort());
  });
});

describe('adsctl completion', () => {
  it('refuses another shell in one line', async () => {
    const run = await runCli(['completion', 'fish']);
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: "Error: command-argument value 'fish' is invalid for argument 'shell'. Allowed choices are bash, zsh; see adsctl completion --help\n" });
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

  it.each([['validate'], ['plan'], ['apply'], ['destroy'], ['show'], ['import'], ['generate'], ['state'], ['force-unlock'], ['auth'], ['insights'], ['emulator'], ['completion']])('names %s in both scripts', (command) => {
    expect(bash).toMatch(new RegExp(`\\b${command}\\b`));
    expect(zsh).toMatch(new RegExp(`'${command}:`));
  });
});
