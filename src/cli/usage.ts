/**
 * How the command line treats what a user types before any command runs: Terraform's single-dash
 * spellings (`-target`, `-auto-approve`, `-detailed-exitcode`, `-destroy`) are read as their
 * `--` forms, `adsctl help CMD` is `adsctl CMD --help`, and a usage error (unknown option or
 * command, a bad or missing argument) is one line naming the problem and the command's `--help`,
 * not the whole help text. Output goes through `Io`, so tests see what a user sees.
 */
import type { Command } from 'commander';
import type { Io } from './io.js';

const SINGLE_DASH_WORD = /^-[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9](?:=.*)?$/s;

/**
 * The arguments as adsctl parses them: a single-dash word of two letters or more before `--`
 * becomes its double-dash form (so `-target=x` is `--target=x`, and a misspelt one gets commander's
 * "did you mean"), and a leading `help CMD...` becomes `CMD... --help`. Single letters (`-h`, `-V`)
 * are short options and stay as they are.
 */
export function normalizeArgv(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  const rest = end === -1 ? [] : argv.slice(end);
  const out = options.map((arg) => (SINGLE_DASH_WORD.test(arg) ? `-${arg}` : arg));
  if (out[0] === 'help' && out.length > 1) return [...out.slice(1), '--help', ...rest];
  return [...out, ...rest];
}

/** `adsctl state mv`: the names from the top level down to `cmd`. */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Commander's error text as one line: `error: unknown option '--x'\n(Did you mean --y?)` becomes
 * `Error: unknown option '--x' (did you mean --y?); see adsctl plan --help`.
 */
export function usageErrorLine(text: string, path: string): string {
  const message = text
    .trim()
    .replace(/^error:\s*/i, '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\(Did you mean/g, '(did you mean')
    .replace(/\.$/, '');
  return `Error: ${message}; see ${path} --help\n`;
}

/**
 * Gives `cmd` and every command under it adsctl's conventions: errors are thrown (not
 * `process.exit`), help goes to `io.out` (`io.err` when shown for a missing subcommand), and a usage
 * error is the one line of `usageErrorLine`.
 */
export function applyUsageConventions(cmd: Command, io: Io): void {
  const path = commandPath(cmd);
  cmd
    .exitOverride()
    .showHelpAfterError(false)
    .configureOutput({
      writeOut: (text) => io.out(text),
      writeErr: (text) => io.err(text),
      outputError: (text) => io.err(usageErrorLine(text, path)),
    });
  for (const sub of cmd.commands) applyUsageConventions(sub, io);
}
