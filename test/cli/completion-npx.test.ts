/**
 * Shell completion after `npm ci` in a clone, where `adsctl` is not on PATH and is run as `npx
 * adsctl`: the bash script (run in a real bash, its function called as bash calls it) registers
 * for `npx` too, completes the words after `npx [options] adsctl` as adsctl's, leaves other npx
 * commands to the shell, keeps a completion npx already has, and reads the addresses through the
 * adsctl that wrote it, with no `adsctl` on PATH. The zsh and fish scripts are checked for the
 * same (neither shell is here to run them).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.js';
import { runCli } from '../support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-completion-npx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const project = join(dir, 'project');
/** PATH for the shell: node, and an `npx` that records that it was called and fails; never `adsctl`. */
const bin = join(dir, 'bin');
const npxCalls = join(dir, 'npx-calls');
const MANIFEST = `version: 1
endpoint: local
account:
  name: Completion
funding_instruments:
  main: { type: CREDIT_CARD, currency: USD, start_time: 2026-01-01T00:00:00Z }
campaigns:
  summer: { name: Summer, funding_instrument: main, daily_budget: "5.00" }
  winter: { name: Winter, funding_instrument: main, daily_budget: "5.00" }
`;

let bash = '';
let zsh = '';
let fish = '';

beforeAll(async () => {
  const [b, z, f] = await Promise.all([runCli(['completion', 'bash']), runCli(['completion', 'zsh']), runCli(['completion', 'fish'])]);
  for (const run of [b, z, f]) expect(run.code, run.stderr).toBe(0);
  bash = b.stdout;
  zsh = z.stdout;
  fish = f.stdout;
  writeFileSync(join(dir, 'adsctl.bash'), bash);
  mkdirSync(project);
  writeFileSync(join(project, 'account.yaml'), MANIFEST);
  mkdirSync(bin);
  writeFileSync(join(bin, 'npx'), `#!/bin/sh\necho "$@" >> ${JSON.stringify(npxCalls)}\nexit 1\n`);
  chmodSync(join(bin, 'npx'), 0o755);
});

/** PATH with node's directory and the fake npx, and nothing named adsctl. */
const PATH = (): string => `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`;

/** What bash offers for `words`, the cursor on the last word, in `cwd`, after `before` (shell lines). */
function complete(words: string[], cwd = dir, before = ''): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const script = `${before}\nsource ${JSON.stringify(join(dir, 'adsctl.bash'))}\nCOMP_WORDS=(${quoted})\nCOMP_CWORD=${words.length - 1}\n"$(complete -p npx | sed -E 's/.* -F ([^ ]+) .*/\\1/')"\nprintf '%s\\n' "\${COMPREPLY[@]}"`;
  const run = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8', cwd, env: { PATH: PATH(), HOME: dir } });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter((w) => w !== '');
}

describe('bash completion of npx adsctl', () => {
  it('registers for npx as well as adsctl, and adsctl is not on PATH', () => {
    const run = spawnSync('bash', ['--norc', '--noprofile', '-c', `source ${JSON.stringify(join(dir, 'adsctl.bash'))} && complete -p adsctl npx && command -v adsctl || true`], { encoding: 'utf8', env: { PATH: PATH(), HOME: dir } });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual(['complete -o default -F _adsctl adsctl', 'complete -o default -F _adsctl npx']);
  });

  it.each([
    [['npx', 'adsctl', 'pl'], ['plan']],
    [['npx', 'adsctl', 'state', ''], ['list', 'show', 'rm', 'mv', 'history', 'pull', 'push', 'migrate']],
    [['npx', '--yes', 'adsctl', 'plan', '--refresh'], ['--refresh-only']],
    [['npx', 'adsctl', 'completion', ''], ['bash', 'zsh', 'fish']],
    [['npx', 'cowsay', ''], []],
    [['npx', 'adsc'], []],
  ])('offers for %j: %j', (words, offered) => {
    expect(complete(words).sort()).toEqual([...offered].sort());
  });

  it('offers the addresses of the current directory, asked of the adsctl that wrote the script, not of npx', () => {
    rmSync(npxCalls, { force: true });
    expect(complete(['npx', 'adsctl', 'state', 'mv', 'campaigns.'], project).sort()).toEqual(['campaigns.summer', 'campaigns.winter']);
    expect(complete(['npx', 'adsctl', 'plan', '--target', 'campaigns.w'], project)).toEqual(['campaigns.winter']);
    expect(bash).toContain(`run=(node '${BIN}')`);
    expect(existsSync(npxCalls)).toBe(false);
  });

  it('keeps a completion npx already has', () => {
    const kept = spawnSync('bash', ['--norc', '--noprofile', '-c', `_mine() { :; }; complete -F _mine npx; source ${JSON.stringify(join(dir, 'adsctl.bash'))}; complete -p npx`], { encoding: 'utf8', env: { PATH: PATH(), HOME: dir } });
    expect(kept.stdout.trim()).toBe('complete -F _mine npx');
  });
});

describe('zsh and fish completion of npx adsctl', () => {
  it('zsh registers _adsctl for npx when npx has none, and completes from the word adsctl on', () => {
    expect(zsh).toContain('(( $+_comps[npx] )) || compdef _adsctl npx');
    expect(zsh).toContain("if [[ ${words[1]:t} == npx ]]; then");
    expect(zsh).toContain('words=("${(@)words[at,-1]}")');
    expect(zsh).toContain(`run=(node '${BIN}')`);
    expect(zsh).toContain('addrs=(${(f)"$(${run[@]} completion addresses 2>/dev/null)"})');
  });

  it('fish completes npx adsctl as adsctl, the addresses through the adsctl that wrote the script', () => {
    expect(fish).toContain("complete -c npx -n '__adsctl_npx' -f -a '(__adsctl_npx_complete)'");
    expect(fish).toContain("complete -C (string replace -r -- '^\\s*npx(\\s+-\\S*)*\\s+adsctl' 'adsctl' (commandline -cp))");
    expect(fish).toContain(`node '${BIN}' completion addresses 2>/dev/null`);
    const opened = fish.split('\n').filter((l) => /^\s*(function|if|for|switch)\b/.test(l)).length;
    const ended = fish.split('\n').filter((l) => /^\s*end$/.test(l)).length;
    expect(ended).toBe(opened);
  });
});
