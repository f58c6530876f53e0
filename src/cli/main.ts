/**
 * The command line: argv in, exit code out. The only module that touches the process, stdout and
 * stderr. Exit codes: 0 success, 1 error, 2 changes present (plan --detailed-exitcode).
 */
import { Command, CommanderError } from 'commander';
import { registerApply } from './apply-command.js';
import { registerAuth } from './auth-command.js';
import { registerDestroy } from './destroy-command.js';
import { registerImport } from './import-command.js';
import { registerPlan } from './plan-command.js';
import { registerState } from './state-command.js';
import { registerEmulator } from './emulator-command.js';
import { exitNow } from './early-exit.js';
import { endpointEnvRefusal } from './endpoint-env.js';
import { processIo, whenOutputCloses, type Io } from './io.js';
import { registerValidate } from './validate-command.js';
import { packageVersion } from './version.js';

/** Runs the command line and resolves with the process exit code. */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const program = new Command('adsctl')
    .description('Infrastructure-as-code for advertising accounts')
    .version(packageVersion())
    .exitOverride()
    .showHelpAfterError();
  let exitCode = 0;
  const setExit = (code: number): void => {
    exitCode = code;
  };
  registerEmulator(program, setExit);
  registerValidate(program, setExit, io);
  registerAuth(program, io, setExit);
  const tty = io.stdoutTty;
  registerPlan(program, io, setExit, tty);
  registerApply(program, io, setExit, tty);
  registerDestroy(program, io, setExit, tty);
  registerImport(program, io, setExit);
  registerState(program, io, setExit);
  const refused = endpointEnvRefusal(argv, io.env);
  if (refused !== undefined) {
    io.err(`Error: ${refused}\n`);
    return 1;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? 0 : 1;
    }
    throw error;
  }
  return exitCode;
}

/** One line for an error nothing else caught: a bug, told without a stack trace unless `--debug`. */
function crashLine(error: unknown, debug: boolean): string {
  const message = error instanceof Error ? error.message : String(error);
  if (debug && error instanceof Error && error.stack !== undefined) return `Error: internal error: ${error.stack}\n`;
  return `Error: internal error: ${message.split('\n')[0] ?? ''} (a bug in adsctl; run with --debug to see where)\n`;
}

/**
 * What `bin/adsctl.js` runs: `main` with the process's streams. A closed stdout or stderr ends the
 * run at once and quietly (exit 1), an uncaught error prints one line (exit 1); either way the
 * state locks this run holds are released (see early-exit.ts).
 */
export async function runProcess(argv: readonly string[]): Promise<void> {
  const debug = argv.some((a) => a === '--debug' || a === '-debug');
  const crash = (error: unknown): void => {
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
    process.exitCode = await main(argv);
  } catch (error) {
    crash(error);
  }
}
