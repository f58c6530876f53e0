/**
 * The options of the commands that open accounts, their parsing, and the one way they reach the
 * engine: `withAccountOptions` declares `--parallelism`, `--lock-timeout` and `--connect-timeout`
 * alike for every such command, and `runOptions` turns them and the environment into the
 * engine's `RunOptions`. `withRunOptions` adds what plan, apply and destroy share besides.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { RunOptions } from '../engine/run-options.js';
import { allowProblem } from '../engine/guardrails.js';
import type { ColorChoice } from './color.js';
import type { Io } from './io.js';
import { durationMs, requestTimeoutFromEnv } from './run-env.js';

/** The options `withAccountOptions` declares, as commander reads them. */
export interface AccountFlags {
  /** `--parallelism`: requests in flight at once. */
  parallelism: number;
  /** `--lock-timeout` in milliseconds: how long to wait for a state lock. */
  lockTimeout: number;
  /** `--connect-timeout` in milliseconds: how long a refused connection is retried. */
  connectTimeout: number;
}

export interface RunFlags extends AccountFlags {
  target?: string[];
  /** False with `--no-color`; whether `--color` was given is the command's option source (see color.ts). */
  color: boolean;
  /** `--color`, `--no-color` or neither, as the command read them (color.ts `colorChoice`). */
  colorChoice?: ColorChoice;
  debug?: boolean;
  /** `--allow RULE`: guardrails lifted for this run (docs/manifest.md, "Guardrails"). */
  allow?: string[];
}

/** `30s`, `5m`, `1500ms` or plain seconds (run-env.ts, `durationMs`), as an option's value. */
export function parseDuration(value: string): number {
  const ms = durationMs(value);
  if (ms === undefined) throw new InvalidArgumentError('expected a duration such as 0s, 30s, 5m');
  return ms;
}

const positive = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
};

/** `--parallelism` when not given. */
const DEFAULT_PARALLELISM = 8;
/** `--connect-timeout` when not given. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

const collectRule = (value: string, previous: string[] | undefined): string[] => {
  const problem = allowProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(problem);
  return collect(value, previous);
};

/** Adds `--parallelism`, `--lock-timeout` and `--connect-timeout` to a command that opens accounts. */
export function withAccountOptions(cmd: Command): Command {
  return cmd
    .option('--parallelism <n>', 'requests in flight at once', positive, DEFAULT_PARALLELISM)
    .option('--lock-timeout <duration>', 'how long to wait for the state lock', parseDuration, 0)
    .addOption(new Option('--connect-timeout <duration>', 'how long to keep retrying an endpoint that refuses connections').argParser(parseDuration).default(DEFAULT_CONNECT_TIMEOUT_MS, '10s'));
}

/** Adds the options plan, apply and destroy share to a command. */
export function withRunOptions(cmd: Command): Command {
  return withAccountOptions(cmd.option('--target <address>', 'limit to this resource and what it contains (repeatable)', collect))
    .option('--no-color', 'plain output without colour (also NO_COLOR)')
    .option('--color', 'colour even when stdout is not a terminal (also FORCE_COLOR)')
    .option('--debug', 'print a request trace (credentials redacted)')
    .option('--allow <rule>', 'lift one guardrail of adsctl.yaml for this run (repeatable)', collectRule);
}

/**
 * The run's options for the engine, from a command's flags (`withAccountOptions`; a command
 * without them, such as `insights`, runs with their defaults) and the environment
 * (ADSCTL_REQUEST_TIMEOUT), with the run's clock. Every command that opens accounts or endpoints
 * builds them here, once, and gives them to the engine when the accounts are opened.
 */
export function runOptions(flags: Partial<AccountFlags>, io: Pick<Io, 'env' | 'clock'>): RunOptions {
  // checked when the command line started (main.ts): a bad value never gets here
  const requestTimeout = requestTimeoutFromEnv(io.env);
  return {
    parallelism: flags.parallelism ?? DEFAULT_PARALLELISM,
    connectTimeoutMs: flags.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT_MS,
    lockTimeoutMs: flags.lockTimeout ?? 0,
    ...(typeof requestTimeout === 'number' ? { requestTimeoutMs: requestTimeout } : {}),
    clock: io.clock,
  };
}
