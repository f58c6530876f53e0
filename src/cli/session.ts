/**
 * The command's side of opening accounts: what the engine (src/engine/accounts.ts) is given from
 * the process — endpoints opened here (the embedded emulator among them), credentials from the
 * environment or the profile, the state backend each root's adsctl.yaml names, and notices on
 * stderr — and, from here on, signals that release the locks before the process ends.
 */
import { relative } from 'node:path';
import { openAccounts, type AccountEnvironment, type AccountTarget, type Sessions } from '../engine/accounts.js';
import type { RunOptions } from '../engine/run-options.js';
import { userCredentialsFrom } from './credentials.js';
import { openEndpoint } from './endpoint.js';
import { exitOnInterrupt } from './interrupt.js';
import type { Io } from './io.js';
import { openStore } from './state-store.js';
import { waitNotices } from './wait-notices.js';

/** The force-unlock command a user types for a lock of the state under `root`, from the current directory. */
function unlockCommand(id: string, root: string): string {
  const path = relative(process.cwd(), root);
  return `adsctl force-unlock ${id}${path === '' ? '' : ` ${path.includes(' ') ? JSON.stringify(path) : path}`}`;
}

/**
 * What the engine opens accounts with, from the process's environment and streams; `endpointFlag`
 * is the command's `--endpoint`, when it has one (the engine weighs it, ADSCTL_ENDPOINT and each
 * manifest's `endpoint:` by `chooseEndpoint`). The run's options are not here: they are the
 * engine's `RunOptions` (run-options.ts, `runOptions`).
 */
export function accountEnvironment(io: Io, debug: boolean, endpointFlag?: string): AccountEnvironment {
  return {
    endpointGiven: { flag: endpointFlag, environment: io.env['ADSCTL_ENDPOINT'] },
    openEndpoint: (name, dotDir, { waitMs, connectTimeoutMs }) => openEndpoint(name, dotDir, io.clock, waitMs, connectTimeoutMs),
    credentialsFor: (name) => userCredentialsFrom(io.env, name),
    openStore: (root) => openStore(root, io.env, io.clock),
    unlockCommand,
    warn: (text) => io.err(text),
    // a long wait for a rate limit is told once per budget and window, whichever account waits
    onWait: waitNotices(io),
    ...(debug ? { trace: (line: string) => io.err(`[debug] ${line}\n`) } : {}),
  };
}

interface SessionOptions {
  io: Io;
  /** The run's options (`runOptions`). */
  run: RunOptions;
  operation: string;
  debug: boolean;
}

/** Opens a session per account (src/engine/accounts.ts); on any problem, returns diagnostics and holds nothing. */
export async function openSessions(accounts: readonly AccountTarget[], options: SessionOptions): Promise<Sessions> {
  // from here on a run holds locks: a signal releases them before it ends the process
  exitOnInterrupt((text) => options.io.err(text));
  return openAccounts(accounts, accountEnvironment(options.io, options.debug), options.run, options.operation);
}
