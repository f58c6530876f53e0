/**
 * Issue 9, point 10, the habits Terraform and git users bring: single-dash spellings, an option
 * error as one line pointing at `--help` (not the whole help), bare `adsctl` printing the help to
 * stderr with exit 1. Through `main` with captured streams, and the argv rewriting as a table.
 */
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { normalizeArgv, usageErrorLine } from '../../src/cli/usage.js';
import { testClock } from '../support/test-clock.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, interactive: false, stdoutTty: false, readLine: async () => undefined, clock: testClock };
  const code = await main(args, io);
  return { code, out, err };
}

describe('normalizeArgv', () => {
  it.each([
    [['plan', '-detailed-exitcode'], ['plan', '--detailed-exitcode']],
    [['plan', '-target', 'campaigns.a', '-target=campaigns.b'], ['plan', '--target', 'campaigns.a', '--target=campaigns.b']],
    [['apply', '-auto-approve', 'plan.bin'], ['apply', '--auto-approve', 'plan.bin']],
    [['plan', '-destroy', '-out=destroy.plan'], ['plan', '--destroy', '--out=destroy.plan']],
    [['plan', '-lock-timeout=30s', '-no-color'], ['plan', '--lock-timeout=30s', '--no-color']],
    [['-version'], ['--version']],
    [['-V'], ['-V']],
    [['plan', '-h'], ['plan', '-h']],
    [['plan', '--json'], ['plan', '--json']],
    [['plan', '--', '-odd-dir'], ['plan', '--', '-odd-dir']],
    [['help', 'state', 'mv'], ['state', 'mv', '--help']],
    [['help'], ['help']],
  ])('reads %j as %j', (argv, expected) => {
    expect(normalizeArgv(argv)).toEqual(expected);
  });
});

describe('usageErrorLine', () => {
  it.each([
    ["error: unknown option '--destory'\n(Did you mean --destroy?)\n", 'adsctl plan', "Error: unknown option '--destory' (did you mean --destroy?); see adsctl plan --help\n"],
    ["error: missing required argument 'address'\n", 'adsctl import', "Error: missing required argument 'address'; see adsctl import --help\n"],
    ["error: too many arguments for 'plan'. Expected 1 argument but got 2.\n", 'adsctl plan', "Error: too many arguments for 'plan'. Expected 1 argument but got 2; see adsctl plan --help\n"],
  ])('makes %j one line', (text, path, line) => {
    expect(usageErrorLine(text, path)).toBe(line);
  });
});

describe('the top level', () => {
  it('bare adsctl prints the help to stderr and exits 1, as terraform and git do', async () => {
    const result = await run([]);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toMatch(/^Usage: adsctl \[options\] \[command\]/);
    expect(result.err).toMatch(/^ {2}plan \[options\] \[path\] +show what apply would change/m);
  });

  it.each([[['--help']], [['-h']], [['help']]])('%j prints the help to stdout and exits 0', async (args) => {
    const result = await run(args);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toMatch(/^Usage: adsctl/);
  });

  it.each([
    [['plan', '--detailed-exitcod'], "Error: unknown option '--detailed-exitcod' (did you mean --detailed-exitcode?); see adsctl plan --help"],
    [['plan', '-detailed-exitcod'], "Error: unknown option '--detailed-exitcod' (did you mean --detailed-exitcode?); see adsctl plan --help"],
    [['plan', '--parallelism', 'many'], "Error: option '--parallelism <n>' argument 'many' is invalid. expected a whole number of at least 1; see adsctl plan --help"],
    [['plan', '--connect-timeout', 'soon'], "Error: option '--connect-timeout <duration>' argument 'soon' is invalid. expected a duration such as 0s, 30s, 5m; see adsctl plan --help"],
    [['apply', '-auto-aprove'], "Error: unknown option '--auto-aprove' (did you mean --auto-approve?); see adsctl apply --help"],
    [['pln'], "Error: unknown command 'pln' (did you mean plan?); see adsctl --help"],
    [['state', 'mv', 'campaigns.a'], "Error: missing required argument 'destination'; see adsctl state mv --help"],
  ])('%j is one line pointing at --help, exit 1, nothing on stdout', async (args, line) => {
    const result = await run(args);
    expect(result).toEqual({ code: 1, out: '', err: `${line}\n` });
  });

  it('takes -help after a command as --help', async () => {
    const result = await run(['plan', '-help']);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^Usage: adsctl plan \[options\] \[path\]/);
    expect(result.out).toContain('--detailed-exitcode');
  });
});
