/** Options shared by plan, apply and destroy, and their parsing. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { GUARDRAIL_RULES, isGuardrailRule } from '../guardrails/policy.js';
import type { ColorChoice } from './color.js';
import { durationMs } from './run-env.js';

export interface RunFlags {
  target?: string[];
  parallelism: number;
  lockTimeout: number;
  /** `--connect-timeout` in milliseconds: how long a refused connection is retried. */
  connectTimeout?: number;
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

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

const collectRule = (value: string, previous: string[] | undefined): string[] => {
  if (!isGuardrailRule(value)) throw new InvalidArgumentError(`not a guardrail rule; the rules are ${GUARDRAIL_RULES.join(', ')}`);
  return collect(value, previous);
};

/** Adds the shared options to a command. */
export function withRunOptions(cmd: Command): Command {
  return cmd
    .option('--target <address>', 'limit to this resource and what it contains (repeatable)', collect)
    .option('--parallelism <n>', 'requests in flight at once', positive, 8)
    .option('--lock-timeout <duration>', 'how long to wait for the state lock', parseDuration, 0)
    .addOption(new Option('--connect-timeout <duration>', 'how long to keep retrying an endpoint that refuses connections').argParser(parseDuration).default(10_000, '10s'))
    .option('--no-color', 'plain output without colour (also NO_COLOR)')
    .option('--color', 'colour even when stdout is not a terminal (also FORCE_COLOR)')
    .option('--debug', 'print a request trace (credentials redacted)')
    .option('--allow <rule>', 'lift one guardrail of adsctl.yaml for this run (repeatable)', collectRule);
}
