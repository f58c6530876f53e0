/**
 * `adsctl state list|show|rm|mv|history|pull|push|migrate` and `adsctl force-unlock`, each taking
 * the manifests' path the same way (DIR after its arguments, or --path: state-path.ts): the
 * command line of the engine's state work (src/engine/state-edit.ts, state-migrate.ts), in
 * whichever backend the configuration root keeps its state (state-store.ts). Here the arguments
 * are read, the backends opened and closed, and the exit code set.
 */
import type { Command } from 'commander';
import type { StateFlags, StateOutput } from '../engine/state-account.js';
import { forceUnlock, listState, moveInState, pullState, pushState, removeFromState, showState, stateHistory } from '../engine/state-edit.js';
import { migrateState } from '../engine/state-migrate.js';
import type { StateStore } from '../state/store.js';
import { formatDiagnostics } from '../diag/format.js';
import { exitOnInterrupt } from './interrupt.js';
import type { Io } from './io.js';
import { parseDuration } from './run-options.js';
import { stateDirOf, stateRoots } from './root.js';
import { addressesAndDir, statePath } from './state-path.js';
import { openNamedStore, openStore } from './state-store.js';
import { tellRemovedVersions } from './removed-versions.js';

/** The flags as commander gives them: the path may come as DIR instead. */
type GivenFlags = Omit<StateFlags, 'path'> & { path?: string };

/** The backends of the roots of `path` (root.ts); a root whose backend cannot be opened is an error. */
async function storesOf(io: Io, path: string): Promise<StateStore[] | undefined> {
  // the state commands take locks: a signal releases them before it ends the process
  exitOnInterrupt((text) => io.err(text));
  const stores: StateStore[] = [];
  for (const root of stateRoots(path)) {
    const opened = await openStore(root, io.env, io.clock);
    if ('read' in opened) stores.push(opened);
    else {
      for (const store of stores) await store.close();
      io.err(formatDiagnostics([opened], new Map()));
      return undefined;
    }
  }
  return stores;
}

/** Opens the backends of `path`, runs `work` on them and closes them; exit 0 when it succeeded, 1 when it failed or they could not be opened. */
async function withStores(io: Io, path: string, setExit: (code: number) => void, work: (stores: StateStore[]) => Promise<boolean>): Promise<void> {
  const stores = await storesOf(io, path);
  if (stores === undefined) return setExit(1);
  try {
    setExit((await work(stores)) ? 0 : 1);
    tellRemovedVersions(io, stores);
  } finally {
    for (const store of stores) await store.close();
  }
}

/**
 * `state migrate --from` for one configuration root: its `from` backend and the one its
 * adsctl.yaml names opened (a signal releases their locks), the state moved between them
 * (src/engine/state-migrate.ts), both closed; false when anything was not moved.
 */
async function migrateRoot(io: Io, root: string, from: 'local' | 'postgres', flags: { lockTimeout: number; force?: boolean }): Promise<boolean> {
  exitOnInterrupt((text) => io.err(text));
  const source = await openNamedStore(root, from, io.env, io.clock);
  if (!('read' in source)) {
    io.err(formatDiagnostics([source], new Map()));
    return false;
  }
  const destination = await openStore(root, io.env, io.clock);
  if (!('read' in destination)) {
    await source.close();
    io.err(formatDiagnostics([destination], new Map()));
    return false;
  }
  try {
    return await migrateState(io, root, from, source, destination, flags);
  } finally {
    await source.close();
    await destination.close();
  }
}

/** What DIR is, in every state command's help. */
const DIR_HELP = 'a manifest file or a directory of manifests (as for plan); or --path';

const common = (cmd: Command): Command =>
  cmd
    .option('--path <path>', 'the manifests whose .adsctl/state to use (or DIR; default: the current directory)')
    .option('--account <key>', 'the account, when several have state')
    .option('--lock-timeout <duration>', 'how long to wait for the state lock', parseDuration, 0);

/** Adds `state` and its subcommands, and `force-unlock`, to the program. */
export function registerState(program: Command, io: Io, setExit: (code: number) => void): void {
  const output: StateOutput = io;
  const state = program.command('state').description('inspect and edit the state');
  /** The flags with the path DIR or --path gives (state-path.ts), or undefined when both are given apart (said, exit 1). */
  const located = <F extends { path?: string }>(dir: string | undefined, given: F): (F & { path: string }) | undefined => {
    const chosen = statePath(dir, given.path);
    if ('problem' in chosen) {
      io.err(`Error: ${chosen.problem}\n`);
      setExit(1);
      return undefined;
    }
    return { ...given, path: chosen.path };
  };
  /** Runs `work` on the backends of the state DIR or --path names. */
  const run = <F extends { path?: string }>(dir: string | undefined, given: F, work: (flags: F & { path: string }, stores: StateStore[]) => Promise<boolean>): Promise<void> | undefined => {
    const flags = located(dir, given);
    return flags === undefined ? undefined : withStores(io, flags.path, setExit, (stores) => work(flags, stores));
  };

  common(state.command('list'))
    .description('list the addresses the state binds, with their ids')
    .argument('[dir]', DIR_HELP)
    .action((dir: string | undefined, given: GivenFlags) => run(dir, given, (flags, stores) => listState(output, flags, stores)));

  common(state.command('show'))
    .description('show what the state holds for one address')
    .argument('<address>')
    .argument('[dir]', DIR_HELP)
    .action((address: string, dir: string | undefined, given: GivenFlags) => run(dir, given, (flags, stores) => showState(output, flags, stores, address)));

  common(state.command('rm'))
    .description('stop managing addresses (the live objects stay)')
    .argument('<address...>', `the addresses, then DIR when given: ${DIR_HELP}`)
    .action((args: string[], given: GivenFlags) => {
      const { addresses, dir } = addressesAndDir(args);
      return run(dir, given, (flags, stores) => removeFromState(output, flags, stores, addresses));
    });

  common(state.command('mv'))
    .description('bind a live object, and what it contains, to a new address (a rename without recreating it)')
    .argument('<source>')
    .argument('<destination>')
    .argument('[dir]', DIR_HELP)
    .action((source: string, destination: string, dir: string | undefined, given: GivenFlags) =>
      run(dir, given, (flags, stores) => moveInState(output, flags, stores, source, destination, () => stateRoots(flags.path).map(stateDirOf))),
    );

  common(state.command('history'))
    .description('list the versions of an account\'s state that are kept, newest first')
    .argument('[dir]', DIR_HELP)
    .action((dir: string | undefined, given: GivenFlags) => run(dir, given, (flags, stores) => stateHistory(output, flags, stores)));

  common(state.command('pull'))
    .description('print an account\'s state as JSON (the current one, or a kept version)')
    .option('--serial <n>', 'a kept version (see adsctl state history)', (v) => Number.parseInt(v, 10))
    .argument('[dir]', DIR_HELP)
    .action((dir: string | undefined, given: GivenFlags & { serial?: number }) => run(dir, given, (flags, stores) => pullState(output, flags, stores, flags.serial)));

  common(state.command('push'))
    .description('replace an account\'s state by a state file, when its serial is newer')
    .argument('<file>', 'a state file, as adsctl state pull prints it')
    .argument('[dir]', DIR_HELP)
    .option('--force', 'replace the state even when the file is not newer, or an interrupted apply left its journal (the next run checks that the two fit)')
    .action((file: string, dir: string | undefined, given: GivenFlags & { force?: boolean }) => run(dir, given, (flags, stores) => pushState(output, flags, stores, file, flags.force === true)));

  common(state.command('migrate'))
    .description('move the state of every account from one backend to the one adsctl.yaml names now')
    .requiredOption('--from <backend>', 'where the state is kept now: local or postgres')
    .option('--force', 'replace states the destination holds that are not older')
    .argument('[dir]', DIR_HELP)
    .action(async (dir: string | undefined, given: GivenFlags & { from: string; force?: boolean }) => {
      const flags = located(dir, given);
      if (flags === undefined) return;
      if (flags.from !== 'local' && flags.from !== 'postgres') {
        io.err(`Error: --from is local or postgres, not ${flags.from}\n`);
        return setExit(1);
      }
      let failed = false;
      for (const root of stateRoots(flags.path)) {
        if (!(await migrateRoot(io, root, flags.from, flags))) failed = true;
      }
      setExit(failed ? 1 : 0);
    });

  program
    .command('force-unlock')
    .description('remove a state lock left by a run that is gone')
    .argument('<lock-id>')
    .argument('[dir]', `the manifests whose state the lock guards: ${DIR_HELP}`)
    .option('--path <path>', 'the manifests whose .adsctl/state to use (or DIR; default: the current directory)')
    .option('--force', 'break the lock even though its holder is still running (that run stops at its next write)')
    .action((id: string, dir: string | undefined, given: { path?: string; force?: boolean }) => run(dir, given, (_flags, stores) => forceUnlock(output, stores, id, given.force === true)));
}
