/**
 * `adsctl state list|show|rm|mv` and `adsctl force-unlock`: inspect and edit the bindings of
 * addresses to live ids without touching the service. Edits take the account's lock.
 */
import type { Command } from 'commander';
import { parseAddress, formatAddress } from '../manifest/address.js';
import type { ResourceAddress } from '../manifest/types.js';
import { acquireLock, forceUnlock } from '../state/lock.js';
import { stateAccounts } from '../state/state-files.js';
import { readState, writeState, type AccountState } from '../state/state-file.js';
import type { Io } from './io.js';
import { lockedMessage, removedLock, tookOverWarning } from './lock-notices.js';
import { parseDuration } from './run-options.js';
import { stateDirOf, stateRoots } from './root.js';

interface StateFlags {
  path: string;
  account?: string;
  lockTimeout: number;
}

/** One account's state: the directory that holds it and the account's key there. */
interface Located {
  stateDir: string;
  account: string;
}

/** Every account with state under the roots of `path` (root.ts), in root and key order. */
function locateAll(path: string): Located[] {
  return stateRoots(path).flatMap((root) => stateAccounts(stateDirOf(root)).map((account) => ({ stateDir: stateDirOf(root), account })));
}

function pickAccount(io: Io, flags: StateFlags): Located | undefined {
  const all = locateAll(flags.path);
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

/** Runs `edit` on one account's state under its lock and writes it back. */
async function editState(io: Io, flags: StateFlags, setExit: (code: number) => void, edit: (state: AccountState) => string | undefined): Promise<void> {
  const located = pickAccount(io, flags);
  if (located === undefined) return setExit(1);
  const { stateDir, account } = located;
  const lock = await acquireLock(stateDir, account, 'state', flags.lockTimeout);
  if ('heldBy' in lock) {
    io.err(`Error: ${lockedMessage(account, lock.heldBy, (id) => `adsctl force-unlock ${id}`)}\n`);
    return setExit(1);
  }
  if (lock.tookOver !== undefined) io.err(tookOverWarning(account, lock.tookOver));
  try {
    const state = readState(stateDir, account, '');
    if (typeof state === 'string') {
      io.err(`Error: ${state}\n`);
      return setExit(1);
    }
    const problem = edit(state);
    if (problem !== undefined) {
      io.err(`Error: ${problem}\n`);
      return setExit(1);
    }
    writeState(stateDir, state);
    setExit(0);
  } finally {
    lock.release();
  }
}

/**
 * The state addresses inside `from` (its line items, their targeting, ...) with the addresses they
 * take under `to`: a resource moved without its children would orphan them, and the next plan
 * would delete and recreate every one.
 */
function descendantMoves(state: AccountState, from: ResourceAddress, to: ResourceAddress): Array<readonly [string, string]> {
  const moves: Array<readonly [string, string]> = [];
  for (const text of Object.keys(state.resources)) {
    const address = parseAddress(text).value;
    if (address === undefined || address.steps.length <= from.steps.length) continue;
    if (!from.steps.every((step, i) => address.steps[i]?.collection === step.collection && address.steps[i]?.key === step.key)) continue;
    moves.push([text, formatAddress({ kind: address.kind, steps: [...to.steps, ...address.steps.slice(from.steps.length)] })]);
  }
  return moves;
}

const common = (cmd: Command): Command =>
  cmd
    .option('--path <path>', 'the manifests whose .adsctl/state to use', '.')
    .option('--account <key>', 'the account, when several have state')
    .option('--lock-timeout <duration>', 'how long to wait for the state lock', parseDuration, 0);

export function registerState(program: Command, io: Io, setExit: (code: number) => void): void {
  const state = program.command('state').description('inspect and edit the state');

  common(state.command('list'))
    .description('list the addresses the state binds, with their ids')
    .argument('[path]', 'a manifest file or a directory of manifests (as for plan)')
    .action((path: string | undefined, flags: StateFlags) => {
      const all = locateAll(path ?? flags.path).filter((l) => flags.account === undefined || l.account === flags.account);
      if (flags.account !== undefined && all.length === 0) {
        io.err(`Error: no state for account ${flags.account} under ${path ?? flags.path}\n`);
        return setExit(1);
      }
      for (const { stateDir, account } of all) {
        const s = readState(stateDir, account, '');
        if (typeof s === 'string') {
          io.err(`Error: ${s}\n`);
          return setExit(1);
        }
        if (all.length > 1) io.out(`# ${account}\n`);
        for (const [address, r] of Object.entries(s.resources).sort(([a], [b]) => (a < b ? -1 : 1))) io.out(`${address}\t${r.id}\n`);
      }
      setExit(0);
    });

  common(state.command('show'))
    .description('show what the state holds for one address')
    .argument('<address>')
    .action((address: string, flags: StateFlags) => {
      const located = pickAccount(io, flags);
      if (located === undefined) return setExit(1);
      const { stateDir, account } = located;
      const s = readState(stateDir, account, '');
      if (typeof s === 'string') {
        io.err(`Error: ${s}\n`);
        return setExit(1);
      }
      const entry = s.resources[address];
      if (entry === undefined) {
        io.err(`Error: ${address} is not in the state of account ${account}\n`);
        return setExit(1);
      }
      io.out(`${JSON.stringify({ address, ...entry }, null, 2)}\n`);
      setExit(0);
    });

  common(state.command('rm'))
    .description('stop managing addresses (the live objects stay)')
    .argument('<address...>')
    .action(async (addresses: string[], flags: StateFlags) =>
      editState(io, flags, setExit, (s) => {
        const missing = addresses.filter((a) => s.resources[a] === undefined);
        if (missing.length > 0) return `not in the state: ${missing.join(', ')}`;
        for (const a of addresses) delete s.resources[a];
        io.out(`Removed ${addresses.length} address${addresses.length === 1 ? '' : 'es'} from the state.\n`);
        return undefined;
      }),
    );

  common(state.command('mv'))
    .description('bind a live object, and what it contains, to a new address (a rename without recreating it)')
    .argument('<source>')
    .argument('<destination>')
    .action(async (source: string, destination: string, flags: StateFlags) =>
      editState(io, flags, setExit, (s) => {
        const entry = s.resources[source];
        if (entry === undefined) return `${source} is not in the state`;
        const parsed = parseAddress(destination);
        if (parsed.value === undefined) return parsed.diagnostics.map((d) => d.message).join('; ');
        if (parsed.value.kind !== entry.kind) return `${destination} is a ${parsed.value.kind}, but ${source} is a ${entry.kind}`;
        const from = parseAddress(source).value;
        if (from === undefined) return `${source} is not a valid address`;
        const target = formatAddress(parsed.value);
        const moves = [[source, target] as const, ...descendantMoves(s, from, parsed.value)];
        const taken = moves.find(([, to]) => s.resources[to] !== undefined && !moves.some(([f]) => f === to));
        if (taken !== undefined) return `${taken[1]} is already in the state`;
        const entries = moves.map(([f, to]) => [to, s.resources[f]!] as const);
        for (const [f] of moves) delete s.resources[f];
        for (const [to, e] of entries) s.resources[to] = e;
        io.out(`Moved ${source} to ${target}${moves.length > 1 ? ` (and ${moves.length - 1} resource${moves.length === 2 ? '' : 's'} it contains)` : ''}.\n`);
        return undefined;
      }),
    );

  program
    .command('force-unlock')
    .description('remove a state lock left by a run that is gone')
    .argument('<lock-id>')
    .argument('[path]', 'the manifests whose state the lock guards (as for plan)')
    .option('--path <path>', 'the manifests whose .adsctl/state to use', '.')
    .action((id: string, path: string | undefined, flags: { path: string }) => {
      let holder: ReturnType<typeof forceUnlock>;
      for (const root of stateRoots(path ?? flags.path)) holder ??= forceUnlock(stateDirOf(root), id);
      if (holder === undefined) {
        io.err(`Error: no lock with id ${id}\n`);
        return setExit(1);
      }
      io.out(removedLock(holder));
      setExit(0);
    });
}
