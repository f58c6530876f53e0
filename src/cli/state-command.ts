/**
 * `adsctl state list|show|rm|mv|history|pull|push|migrate` and `adsctl force-unlock`, each taking
 * the manifests' path the same way (DIR after its arguments, or --path: state-path.ts): inspect and edit
 * the bindings of addresses to live ids without touching the service, in whichever backend the
 * configuration root keeps its state (state-store.ts). Edits take the account's lock; what they
 * read is the state as the next run reads it (the last checkpoint and the journalled outcomes).
 * `state mv` carries a membership's members last uploaded to its new address.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parseAddress, formatAddress } from '../manifest/address.js';
import { loadState } from '../state/apply-journal.js';
import { membershipMoves, moveMemberStores, type MembershipMove } from '../members/store-move.js';
import { addressMoves, moveEntries, takenDestination } from '../plan/moves.js';
import { describeJournalDamage } from '../state/journal.js';
import { shapeProblems } from '../state/shape.js';
import { STATE_FORMAT_VERSION, type AccountState } from '../state/state-file.js';
import type { ForceUnlockOutcome, JournalStore, MemberStores, StateReader, StateStore } from '../state/store.js';
import { exitOnInterrupt } from './interrupt.js';
import type { Io } from './io.js';
import { liveLockMessage, removedLock } from '../state/lock-notices.js';
import { parseDuration } from './run-options.js';
import { stateDirOf, stateRoots } from './root.js';
import { underLock, type Located } from './state-account.js';
import { migrateRoot } from './state-migrate.js';
import { addressesAndDir, statePath } from './state-path.js';
import { openStore } from './state-store.js';
import { formatDiagnostics } from '../diag/format.js';
import { tellRemovedVersions } from './removed-versions.js';

interface StateFlags {
  path: string;
  account?: string;
  lockTimeout: number;
}

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

/** Every account with state under the roots of `path`, in root and key order. */
async function locateAll(stores: readonly StateStore[]): Promise<Located[]> {
  const all: Located[] = [];
  for (const store of stores) for (const account of await store.accounts()) all.push({ store, account });
  return all;
}

async function pickAccount(io: Io, flags: StateFlags, stores: readonly StateStore[]): Promise<Located | undefined> {
  const all = await locateAll(stores);
  const keys = all.map((l) => l.account);
  if (flags.account !== undefined) {
    const found = all.find((l) => l.account === flags.account);
    if (found !== undefined) return found;
    io.err(`Error: no state for account ${flags.account} under ${flags.path}${keys.length > 0 ? ` (accounts: ${keys.join(', ')})` : ''}\n`);
    return undefined;
  }
  if (all.length === 1) return all[0];
  io.err(all.length === 0 ? `Error: no state under ${flags.path}\n` : `Error: several accounts have state (${keys.join(', ')}): choose one with --account\n`);
  return undefined;
}

/** Opens the backends of `flags.path`, runs `body` and closes them; exit 1 when they cannot be opened. */
async function withStores(io: Io, path: string, setExit: (code: number) => void, body: (stores: StateStore[]) => Promise<void>): Promise<void> {
  const stores = await storesOf(io, path);
  if (stores === undefined) return setExit(1);
  try {
    await body(stores);
    tellRemovedVersions(io, stores);
  } finally {
    for (const store of stores) await store.close();
  }
}

/** The state as the next run reads it, or undefined (said) when it cannot be read. */
async function readable(io: Io, store: StateReader & JournalStore, account: string): Promise<AccountState | undefined> {
  const loaded = await loadState(store, account, '');
  if (typeof loaded === 'string') {
    io.err(`Error: ${loaded}\n`);
    return undefined;
  }
  if (loaded.journal.damage !== undefined) {
    io.err(`Error: ${describeJournalDamage(loaded.journal.damage)}\n`);
    return undefined;
  }
  return loaded.state;
}

/**
 * Runs `edit` on one account's state under its lock and writes it back; then `after`, still under
 * the lock, for what is kept beside the state.
 */
/**
 * Edits one account's state under its lock: `edit` changes the state and returns a problem, or
 * undefined and what to tell the user once the state is written (never before: a write that
 * fails or is interrupted has done nothing).
 */
async function editState(io: Io, flags: StateFlags, setExit: (code: number) => void, operation: string, edit: (state: AccountState) => { problem: string } | { done: string }, after?: (account: string, store: MemberStores) => Promise<void>): Promise<void> {
  await withStores(io, flags.path, setExit, async (stores) => {
    const located = await pickAccount(io, flags, stores);
    if (located === undefined) return setExit(1);
    const locked = await underLock(io, located, flags.lockTimeout, async () => {
      const state = await readable(io, located.store, located.account);
      if (state === undefined) return setExit(1);
      const edited = edit(state);
      if ('problem' in edited) {
        io.err(`Error: ${edited.problem}\n`);
        return setExit(1);
      }
      await located.store.write(state, operation);
      await after?.(located.account, located.store);
      io.out(edited.done);
      setExit(0);
    });
    if (!locked) setExit(1);
  });
}

/** A state file given to `state push`: its JSON checked against schemas/state.schema.json. */
function stateFromFile(file: string): AccountState | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return `${file}: ${error instanceof SyntaxError ? `not valid JSON (${error.message})` : error instanceof Error ? error.message : String(error)}`;
  }
  const version = (parsed as { format_version?: unknown } | null)?.format_version;
  if (typeof version === 'number' && version !== STATE_FORMAT_VERSION) return `${file}: state format ${version}, which this adsctl does not know (it reads format ${STATE_FORMAT_VERSION})`;
  const problems = shapeProblems('state', parsed, 'the state');
  return problems.length > 0 ? `${file}: not a state adsctl can use: ${problems.join('; ')}` : (parsed as AccountState);
}

/** What DIR is, in every state command's help. */
const DIR_HELP = 'a manifest file or a directory of manifests (as for plan); or --path';

const common = (cmd: Command): Command =>
  cmd
    .option('--path <path>', 'the manifests whose .adsctl/state to use (or DIR; default: the current directory)')
    .option('--account <key>', 'the account, when several have state')
    .option('--lock-timeout <duration>', 'how long to wait for the state lock', parseDuration, 0);

export function registerState(program: Command, io: Io, setExit: (code: number) => void): void {
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

  common(state.command('list'))
    .description('list the addresses the state binds, with their ids')
    .argument('[dir]', DIR_HELP)
    .action(async (dir: string | undefined, given: GivenFlags) => {
      const flags = located(dir, given);
      if (flags === undefined) return;
      return withStores(io, flags.path, setExit, async (stores) => {
        const all = (await locateAll(stores)).filter((l) => flags.account === undefined || l.account === flags.account);
        if (flags.account !== undefined && all.length === 0) {
          io.err(`Error: no state for account ${flags.account} under ${flags.path}\n`);
          return setExit(1);
        }
        for (const { store, account } of all) {
          const s = await readable(io, store, account);
          if (s === undefined) return setExit(1);
          if (all.length > 1) io.out(`# ${account}\n`);
          for (const [address, r] of Object.entries(s.resources).sort(([a], [b]) => (a < b ? -1 : 1))) io.out(`${address}\t${r.id}\n`);
        }
        setExit(0);
      });
    });

  common(state.command('show'))
    .description('show what the state holds for one address')
    .argument('<address>')
    .argument('[dir]', DIR_HELP)
    .action(async (address: string, dir: string | undefined, given: GivenFlags) => {
      const flags = located(dir, given);
      if (flags === undefined) return;
      return withStores(io, flags.path, setExit, async (stores) => {
        const located = await pickAccount(io, flags, stores);
        if (located === undefined) return setExit(1);
        const s = await readable(io, located.store, located.account);
        if (s === undefined) return setExit(1);
        const entry = s.resources[address];
        if (entry === undefined) {
          io.err(`Error: ${address} is not in the state of account ${located.account}\n`);
          return setExit(1);
        }
        io.out(`${JSON.stringify({ address, ...entry }, null, 2)}\n`);
        setExit(0);
      });
    });

  common(state.command('rm'))
    .description('stop managing addresses (the live objects stay)')
    .argument('<address...>', `the addresses, then DIR when given: ${DIR_HELP}`)
    .action(async (args: string[], given: GivenFlags) => {
      const { addresses, dir } = addressesAndDir(args);
      const flags = located(dir, given);
      if (flags === undefined) return;
      return editState(io, flags, setExit, 'state rm', (s) => {
        const missing = addresses.filter((a) => s.resources[a] === undefined);
        if (missing.length > 0) return { problem: `not in the state: ${missing.join(', ')}` };
        for (const a of addresses) delete s.resources[a];
        return { done: `Removed ${addresses.length} address${addresses.length === 1 ? '' : 'es'} from the state.\n` };
      });
    });

  common(state.command('mv'))
    .description('bind a live object, and what it contains, to a new address (a rename without recreating it)')
    .argument('<source>')
    .argument('<destination>')
    .argument('[dir]', DIR_HELP)
    .action(async (source: string, destination: string, dir: string | undefined, given: GivenFlags) => {
      const flags = located(dir, given);
      if (flags === undefined) return;
      /** The memberships moved, whose members last uploaded move with them. */
      let memberships: MembershipMove[] = [];
      return editState(io, flags, setExit, 'state mv', (s) => {
        const entry = s.resources[source];
        if (entry === undefined) return { problem: `${source} is not in the state` };
        const parsed = parseAddress(destination);
        if (parsed.value === undefined) return { problem: parsed.diagnostics.map((d) => d.message).join('; ') };
        if (parsed.value.kind !== entry.kind) return { problem: `${destination} is a ${parsed.value.kind}, but ${source} is a ${entry.kind}` };
        const from = parseAddress(source).value;
        if (from === undefined) return { problem: `${source} is not a valid address` };
        const target = formatAddress(parsed.value);
        const moves = addressMoves(s, from, parsed.value);
        const taken = takenDestination(s, moves);
        if (taken !== undefined) return { problem: `${taken} is already in the state` };
        memberships = membershipMoves(moveEntries(s, moves));
        return { done: `Moved ${source} to ${target}${moves.length > 1 ? ` (and ${moves.length - 1} resource${moves.length === 2 ? '' : 's'} it contains)` : ''}.\n` };
      }, async (account, store) => {
        const problems = await moveMemberStores(stateRoots(flags.path).map(stateDirOf), account, store.memberRows?.(account), memberships);
        for (const { to, problem } of problems) io.err(`Warning: ${to}: the members last uploaded did not move: ${problem}; the next plan says what to do\n`);
      });
    });

  common(state.command('history'))
    .description('list the versions of an account\'s state that are kept, newest first')
    .argument('[dir]', DIR_HELP)
    .action(async (dir: string | undefined, given: GivenFlags) => {
      const flags = located(dir, given);
      if (flags === undefined) return;
      return withStores(io, flags.path, setExit, async (stores) => {
        const located = await pickAccount(io, flags, stores);
        if (located === undefined) return setExit(1);
        const versions = await located.store.history(located.account);
        if (versions.length === 0) {
          io.out(`No versions of the state of account ${located.account} are kept in ${located.store.where}.\n`);
          return setExit(0);
        }
        const rows = [['SERIAL', 'WRITTEN AT', 'BY', 'OPERATION', 'RESOURCES'], ...versions.map((v) => [String(v.serial), v.written_at, v.written_by, v.operation, String(v.resources)])];
        const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
        for (const row of rows) io.out(`${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}\n`);
        setExit(0);
      });
    });

  common(state.command('pull'))
    .description('print an account\'s state as JSON (the current one, or a kept version)')
    .option('--serial <n>', 'a kept version (see adsctl state history)', (v) => Number.parseInt(v, 10))
    .argument('[dir]', DIR_HELP)
    .action(async (dir: string | undefined, given: GivenFlags & { serial?: number }) => {
      const flags = located(dir, given);
      if (flags === undefined) return;
      return withStores(io, flags.path, setExit, async (stores) => {
        const located = await pickAccount(io, flags, stores);
        if (located === undefined) return setExit(1);
        let s: AccountState | undefined;
        if (flags.serial === undefined) s = await readable(io, located.store, located.account);
        else {
          s = Number.isSafeInteger(flags.serial) ? await located.store.version(located.account, flags.serial) : undefined;
          if (s === undefined) io.err(`Error: no version ${String(flags.serial)} of the state of account ${located.account} is kept (see adsctl state history --account ${located.account})\n`);
        }
        if (s === undefined) return setExit(1);
        io.out(`${JSON.stringify(s, null, 2)}\n`);
        setExit(0);
      });
    });

  common(state.command('push'))
    .description('replace an account\'s state by a state file, when its serial is newer')
    .argument('<file>', 'a state file, as adsctl state pull prints it')
    .argument('[dir]', DIR_HELP)
    .option('--force', 'replace the state even when the file is not newer, or an interrupted apply left its journal (the next run checks that the two fit)')
    .action(async (file: string, dir: string | undefined, given: GivenFlags & { force?: boolean }) => {
      const flags = located(dir, given);
      if (flags === undefined) return;
      return withStores(io, flags.path, setExit, async (stores) => {
        const pushed = stateFromFile(file);
        if (typeof pushed === 'string') {
          io.err(`Error: ${pushed}\n`);
          return setExit(1);
        }
        const account = flags.account ?? pushed.account;
        if (account !== pushed.account) {
          io.err(`Error: ${file} is the state of account ${pushed.account}, not ${account}\n`);
          return setExit(1);
        }
        const store = stores.length === 1 ? stores[0] : undefined;
        if (store === undefined) {
          io.err(`Error: ${stores.length === 0 ? 'no configuration root' : 'several configuration roots'} under ${flags.path}: give the root as DIR or with --path\n`);
          return setExit(1);
        }
        const located: Located = { store, account };
        const locked = await underLock(io, located, flags.lockTimeout, async () => {
          const journal = await store.readJournal(account);
          // forced, a state is pushed beside an unfinished journal (a checkpoint put back): the next run checks the two fit
          if (flags.force !== true && (journal.open.length > 0 || journal.outcomes.length > 0 || journal.damage !== undefined)) {
            io.err(`Error: an apply of account ${account} was interrupted and its journal is not finished; run adsctl apply first, so that what it sent is not lost\n`);
            return setExit(1);
          }
          // a state that names a journal no longer there would be refused: with none, it holds everything
          if (journal.present !== true) delete pushed.journal_id;
          const outcome = await store.push(pushed, flags.force === true);
          if ('refused' in outcome) {
            io.err(`Error: ${outcome.refused}\n`);
            return setExit(1);
          }
          io.out(`Pushed the state of account ${account} (serial ${outcome.pushed}) to ${store.where}.\n`);
          setExit(0);
        });
        if (!locked) setExit(1);
      });
    });

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
    .action(async (id: string, dir: string | undefined, given: { path?: string; force?: boolean }) => {
      const flags = located(dir, given);
      if (flags === undefined) return;
      return withStores(io, flags.path, setExit, async (stores) => {
        let outcome: ForceUnlockOutcome;
        for (const store of stores) outcome ??= await store.forceUnlock(id, flags.force === true);
        if (outcome === undefined) {
          io.err(`Error: no lock with id ${id}\n`);
          return setExit(1);
        }
        if ('live' in outcome) {
          io.err(`Error: ${liveLockMessage(outcome.live, outcome.why)}\n`);
          return setExit(1);
        }
        io.out(removedLock(outcome.removed));
        setExit(0);
      });
    });
}
