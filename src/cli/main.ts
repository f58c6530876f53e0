/**
 * The command line: argv in, exit code out. The only module that touches the process, stdout and
 * stderr. Exit codes: 0 success, 1 error, 2 changes present (plan --detailed-exitcode). Bare
 * `adsctl` prints the help to stderr and exits 1, as Terraform and git do.
 */
import { Command, CommanderError, Help } from 'commander';
import { COMMANDS } from './commands.js';
import type { LazyCommand } from './lazy-command.js';
import { exitNow, exitUnderway } from './early-exit.js';
import { clockFromEnv, requestTimeoutFromEnv } from './run-env.js';
import { endpointEnvRefusal } from './endpoint-env.js';
import { tuneHeapGrowth } from './heap-growth.js';
import { tuneCompilers } from './compilers.js';
import { processIo, whenOutputCloses, type Io, type SetExit } from './io.js';
import { applyUsageConventions, normalizeArgv } from './usage.js';
import { packageVersion } from './version.js';
import { EnvironmentError } from '../diag/environment-error.js';

/**
 * The stand-in of a command at the top level: it takes every argument as it comes, loads the
 * command's module, and parses them again with the real definition.
 */
function addStandIn(program: Command, command: LazyCommand, io: Io, setExit: SetExit): void {
  program
    .command(command.name)
    .description(command.summary)
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[args...]')
    .action(async (args: string[]) => {
      const register = await command.load();
      const real = new Command('adsctl');
      register(real, io, setExit);
      applyUsageConventions(real, io);
      await real.parseAsync([command.name, ...args], { from: 'user' });
    });
}

/** Commands that never read the time: help, the version, completion scripts, and validate (no network, no now). */
const CLOCKLESS = new Set([undefined, '--help', '-h', 'help', '--version', '-V', 'completion', 'validate']);

/** Whether the command line `args` (normalized, command first) reads the run's clock; asking for help reads nothing. */
const readsClock = (args: readonly string[]): boolean => !CLOCKLESS.has(args[0]) && !args.some((a) => a === '--help' || a === '-h');

/** Runs the command line and resolves with the process exit code. */
export async function main(argv: readonly string[], given: Io = processIo()): Promise<number> {
  const args = normalizeArgv(argv);
  // the run's clock arrives once, from ADSCTL_CLOCK, and every command reads it from io; a bad
  // value stops every command that reads the time, before anything is read or sent
  const clock = clockFromEnv(given.env);
  if (clock !== undefined && 'problem' in clock) {
    if (readsClock(args)) {
      given.err(`Error: ${clock.problem}\n`);
      return 1;
    }
  }
  // so does a request deadline that is not one, for every command that sends requests
  const requestTimeout = requestTimeoutFromEnv(given.env);
  if (typeof requestTimeout === 'object' && readsClock(args)) {
    given.err(`Error: ${requestTimeout.problem}\n`);
    return 1;
  }
  const io: Io = clock === undefined || 'problem' in clock ? given : { ...given, clock };
  let exitCode = 0;
  const setExit: SetExit = (code) => {
    exitCode = code;
  };
  const usage = new Map(COMMANDS.map((c) => [c.name, c.usage]));
  const program = new Command('adsctl')
    .description('Infrastructure-as-code for advertising accounts')
    .version(packageVersion())
    .enablePositionalOptions()
    .configureHelp({ subcommandTerm: (cmd) => (usage.has(cmd.name()) ? `${cmd.name()} ${usage.get(cmd.name())}` : new Help().subcommandTerm(cmd)) });
  for (const command of COMMANDS) addStandIn(program, command, io, setExit);
  applyUsageConventions(program, io);
  const refused = endpointEnvRefusal(args, io.env);
  if (refused !== undefined) {
    io.err(`Error: ${refused}\n`);
    return 1;
  }
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
  return exitCode;
}

/** One line for an error nothing else caught: a bug, told without a stack trace unless `--debug`. */
function crashLine(error: unknown, debug: boolean): string {
  if (error instanceof EnvironmentError) return `Error: ${error.message}\n`;
  const message = error instanceof Error ? error.message : String(error);
  if (debug && error instanceof Error && error.stack !== undefined) return `Error: internal error: ${error.stack}\n`;
  return `Error: internal error: ${message.split('\n')[0] ?? ''} (a bug in adsctl; run with --debug to see where)\n`;
}

/**
 * What `bin/adsctl.js` runs: `main` with the process's streams. A closed stdout or stderr ends the
 * run at once and quietly (exit 1), an uncaught error prints one line (exit 1); either way the
 * state locks this run holds are released (see early-exit.ts). The commands that hold whole
 * accounts in memory run with a bounded heap growth (heap-growth.ts) unless the user set heap flags,
 * and every command with V8's compilers set for a short process (compilers.ts).
 */
export async function runProcess(argv: readonly string[]): Promise<void> {
  tuneHeapGrowth(argv);
  tuneCompilers();
  const debug = argv.some((a) => a === '--debug' || a === '-debug');
  const crash = (error: unknown): void => {
    if (exitUnderway()) return;
    try {
      process.stderr.write(crashLine(error, debug));
    } finally {
      exitNow(1);
    }
  };
  whenOutputCloses(() => exitNow(1));
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  try {
    const code = await main(argv);
    if (!exitUnderway()) process.exitCode = code;
  } catch (error) {
    crash(error);
  }
}
