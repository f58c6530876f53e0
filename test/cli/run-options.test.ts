/**
 * The one way a run's options reach the engine (src/cli/run-options.ts, `runOptions`): from the
 * flags every command that opens accounts declares alike (`withAccountOptions`) and the
 * environment. As tables: the options built from flags and environment; the same flags parsed by
 * each command giving the same options; and a bad `--parallelism` refused in the same words by
 * every command, through `main` with captured streams.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { runOptions, type AccountFlags } from '../../src/cli/run-options.js';
import type { RunOptions } from '../../src/engine/run-options.js';
import { testClock } from '../support/test-clock.js';

const quietIo = (env: Io['env'] = {}): Io => ({ out: () => {}, err: () => {}, env, interactive: false, stdoutTty: false, readLine: async () => undefined, clock: testClock });

/** Every command that opens accounts, with the arguments it needs besides its options. */
const OPENING: ReadonlyArray<{ command: string; args: string[] }> = [
  { command: 'plan', args: [] },
  { command: 'apply', args: [] },
  { command: 'destroy', args: [] },
  { command: 'import', args: ['campaigns.a', '123'] },
  { command: 'generate', args: [] },
];

describe('runOptions', () => {
  it.each<{ name: string; flags: Partial<AccountFlags>; env: Io['env']; want: Omit<RunOptions, 'clock'> }>([
    { name: 'no flags, no environment: the defaults', flags: {}, env: {}, want: { parallelism: 8, connectTimeoutMs: 10_000, lockTimeoutMs: 0 } },
    { name: 'the flags as given', flags: { parallelism: 3, connectTimeout: 2_000, lockTimeout: 30_000 }, env: {}, want: { parallelism: 3, connectTimeoutMs: 2_000, lockTimeoutMs: 30_000 } },
    { name: '--connect-timeout 0s kept, not defaulted', flags: { parallelism: 1, connectTimeout: 0, lockTimeout: 0 }, env: {}, want: { parallelism: 1, connectTimeoutMs: 0, lockTimeoutMs: 0 } },
    { name: 'ADSCTL_REQUEST_TIMEOUT as the request deadline', flags: {}, env: { ADSCTL_REQUEST_TIMEOUT: '30s' }, want: { parallelism: 8, connectTimeoutMs: 10_000, lockTimeoutMs: 0, requestTimeoutMs: 30_000 } },
    { name: 'ADSCTL_REQUEST_TIMEOUT empty: the client default', flags: {}, env: { ADSCTL_REQUEST_TIMEOUT: '' }, want: { parallelism: 8, connectTimeoutMs: 10_000, lockTimeoutMs: 0 } },
  ])('$name', ({ flags, env, want }) => {
    const io = quietIo(env);
    const { clock, ...rest } = runOptions(flags, io);
    expect(rest).toEqual(want);
    expect(clock).toBe(io.clock);
  });
});

/** The options command `name` gives the engine for `argv`, read just before its action would run. */
async function optionsOf(name: string, argv: string[], env: Io['env'] = {}): Promise<RunOptions> {
  const lazy = COMMANDS.find((c) => c.name === name);
  if (lazy === undefined) throw new Error(`no command ${name}`);
  const io = quietIo(env);
  const program = new Command('adsctl').exitOverride();
  (await lazy.load())(program, io, () => {});
  let seen: RunOptions | undefined;
  program.hook('preAction', (_, action) => {
    seen = runOptions(action.opts<AccountFlags>(), io);
    throw new Error('stop before the action');
  });
  await expect(program.parseAsync([name, ...argv], { from: 'user' })).rejects.toThrow('stop before the action');
  if (seen === undefined) throw new Error(`${name} ran no action`);
  return seen;
}

describe('every command that opens accounts', () => {
  it.each(OPENING)('$command takes the run options the same way', async ({ command, args }) => {
    expect(await optionsOf(command, args)).toMatchObject({ parallelism: 8, connectTimeoutMs: 10_000, lockTimeoutMs: 0 });
    const given = await optionsOf(command, [...args, '--parallelism', '3', '--connect-timeout', '2s', '--lock-timeout', '1m'], { ADSCTL_REQUEST_TIMEOUT: '45s' });
    expect(given).toMatchObject({ parallelism: 3, connectTimeoutMs: 2_000, lockTimeoutMs: 60_000, requestTimeoutMs: 45_000 });
  });

  const bad = OPENING.flatMap(({ command, args }) => ['0', 'many', '2.5'].map((value) => ({ command, args, value })));
  it.each(bad)('$command refuses --parallelism $value in the same words', async ({ command, args, value }) => {
    let out = '';
    let err = '';
    const io: Io = { ...quietIo(), out: (t) => void (out += t), err: (t) => void (err += t) };
    const code = await main([command, ...args, '--parallelism', value], io);
    expect({ code, out, err }).toEqual({ code: 1, out: '', err: `Error: option '--parallelism <n>' argument '${value}' is invalid. expected a whole number of at least 1; see adsctl ${command} --help\n` });
  });
});
