/**
 * The command line: argv in, exit code out. The only module that touches the process, stdout and
 * stderr. Exit codes: 0 success, 1 error, 2 changes present (plan --detailed-exitcode).
 */
import { Command, CommanderError } from 'commander';
import { registerAuth } from './auth-command.js';
import { registerEmulator } from './emulator-command.js';
import { processIo, type Io } from './io.js';
import { VERSION } from './version.js';

/** Runs the command line and resolves with the process exit code. */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const program = new Command('adsctl')
    .description('Infrastructure-as-code for advertising accounts')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError();
  let exitCode = 0;
  const setExit = (code: number): void => {
    exitCode = code;
  };
  registerEmulator(program, setExit);
  registerAuth(program, io, setExit);
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
