/**
 * The work of `adsctl state list|show|rm|mv|history|pull|push` and `adsctl force-unlock` on the
 * backends of the roots a command names (opened by the command): inspect and edit the bindings of
 * addresses to live ids without touching the service. Edits take the account's lock and write
 * the state back whole; what they read is the state as the next run reads it. `state mv` carries
 * a membership's members last uploaded to its new address. Each answers whether it succeeded,
 * having said what it found through the `StateOutput`.
 */
import { readFileSync } from 'node:fs';
import { formatAddress, parseAddress } from '../manifest/address.js';
import { membershipMoves, moveMemberStores, type MembershipMove } from '../members/store-move.js';
import { addressMoves, moveEntries, takenDestination } from '../plan/moves.js';
import { liveLockMessage, removedLock } from '../state/lock-notices.js';
import { shapeProblems } from '../state/shape.js';
import { STATE_FORMAT_VERSION, type AccountState } from '../state/state-file.js';
import type { ForceUnlockOutcome, MemberStores, StateStore } from '../state/store.js';
import { locateAll, pickAccount, readable, underLock, type Located, type StateFlags, type StateOutput } from './state-account.js';

/**
 * Edits one account's state under its lock: `edit` changes the state and returns a problem, or
 * what to tell the user once the state is written (never before: a write that fails or is
 * interrupted has done nothing); then `after`, still under the lock, for what is kept beside it.
 */
async function editState(output: StateOutput, flags: StateFlags, stores: readonly StateStore[], operation: string, edit: (state: AccountState) => { problem: string } | { done: string }, after?: (account: string, store: MemberStores) => Promise<void>): Promise<boolean> {
  const located = await pickAccount(output, flags, stores);
  if (located === undefined) return false;
  let ok = false;
  const locked = await underLock(output, located, flags.lockTimeout, async () => {
    const state = await readable(output, located.store, located.account);
    if (state === undefined) return;
    const edited = edit(state);
    if ('problem' in edited) {
      output.err(`Error: ${edited.problem}\n`);
      return;
    }
    await located.store.write(state, operation);
    await after?.(located.account, located.store);
    output.out(edited.done);
    ok = true;
  });
  return locked && ok;
}

/** `state list`: every address each account's state binds, with its id, sorted (headed by the account when there are several). */
export async function listState(output: StateOutput, flags: StateFlags, stores: readonly StateStore[]): Promise<boolean> {
  const all = (await locateAll(stores)).filter((l) => flags.account === undefined || l.account === flags.account);
  if (flags.account !== undefined && all.length === 0) {
    output.err(`Error: no state for account ${flags.account} under ${flags.path}\n`);
    return false;
  }
  for (const { store, account } of all) {
    const s = await readable(output, store, account);
    if (s === undefined) return false;
    if (all.length > 1) output.out(`# ${account}\n`);
    for (const [address, r] of Object.entries(s.resources).sort(([a], [b]) => (a < b ? -1 : 1))) output.out(`${address}\t${r.id}\n`);
  }
  return true;
}

/** `state show ADDRESS`: what the state holds for one address, as JSON. */
export async function showState(output: StateOutput, flags: StateFlags, stores: readonly StateStore[], address: string): Promise<boolean> {
  const located = await pickAccount(output, flags, stores);
  if (located === undefined) return false;
  const s = await readable(output, located.store, located.account);
  if (s === undefined) return false;
  const entry = s.resources[address];
  if (entry === undefined) {
    output.err(`Error: ${address} is not in the state of account ${located.account}\n`);
    return false;
  }
  output.out(`${JSON.stringify({ address, ...entry }, null, 2)}\n`);
  return true;
}

/** `state rm ADDRESS...`: the addresses stop being managed; the live objects stay. */
export function removeFromState(output: StateOutput, flags: StateFlags, stores: readonly StateStore[], addresses: readonly string[]): Promise<boolean> {
  return editState(output, flags, stores, 'state rm', (s) => {
    const missing = addresses.filter((a) => s.resources[a] === undefined);
    if (missing.length > 0) return { problem: `not in the state: ${missing.join(', ')}` };
    for (const a of addresses) delete s.resources[a];
    return { done: `Removed ${addresses.length} address${addresses.length === 1 ? '' : 'es'} from the state.\n` };
  });
}

/**
 * `state mv SOURCE DESTINATION`: the live object bound to `source`, and what it contains, bound to
 * `destination` instead (a rename without recreating it); the members last uploaded of the
 * memberships moved move with them, in the member stores under `stateDirs()`.
 */
export function moveInState(output: StateOutput, flags: StateFlags, stores: readonly StateStore[], source: string, destination: string, stateDirs: () => string[]): Promise<boolean> {
  let memberships: MembershipMove[] = [];
  return editState(output, flags, stores, 'state mv', (s) => {
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
    const problems = await moveMemberStores(stateDirs(), account, store.memberRows?.(account), memberships);
    for (const { to, problem } of problems) output.err(`Warning: ${to}: the members last uploaded did not move: ${problem}; the next plan says what to do\n`);
  });
}

/** `state history`: the versions of an account's state that are kept, newest first, as a table. */
export async function stateHistory(output: StateOutput, flags: StateFlags, stores: readonly StateStore[]): Promise<boolean> {
  const located = await pickAccount(output, flags, stores);
  if (located === undefined) return false;
  const versions = await located.store.history(located.account);
  if (versions.length === 0) {
    output.out(`No versions of the state of account ${located.account} are kept in ${located.store.where}.\n`);
    return true;
  }
  const rows = [['SERIAL', 'WRITTEN AT', 'BY', 'OPERATION', 'RESOURCES'], ...versions.map((v) => [String(v.serial), v.written_at, v.written_by, v.operation, String(v.resources)])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows) output.out(`${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}\n`);
  return true;
}

/** `state pull [--serial N]`: an account's state as JSON, the current one or a kept version. */
export async function pullState(output: StateOutput, flags: StateFlags, stores: readonly StateStore[], serial: number | undefined): Promise<boolean> {
  const located = await pickAccount(output, flags, stores);
  if (located === undefined) return false;
  let s: AccountState | undefined;
  if (serial === undefined) s = await readable(output, located.store, located.account);
  else {
    s = Number.isSafeInteger(serial) ? await located.store.version(located.account, serial) : undefined;
    if (s === undefined) output.err(`Error: no version ${String(serial)} of the state of account ${located.account} is kept (see adsctl state history --account ${located.account})\n`);
  }
  if (s === undefined) return false;
  output.out(`${JSON.stringify(s, null, 2)}\n`);
  return true;
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

/**
 * `state push FILE [--force]`: an account's state replaced by the state file, when its serial is
 * newer (or forced), and not while an interrupted apply's journal is unfinished (unless forced).
 */
export async function pushState(output: StateOutput, flags: StateFlags, stores: readonly StateStore[], file: string, force: boolean): Promise<boolean> {
  const pushed = stateFromFile(file);
  if (typeof pushed === 'string') {
    output.err(`Error: ${pushed}\n`);
    return false;
  }
  const account = flags.account ?? pushed.account;
  if (account !== pushed.account) {
    output.err(`Error: ${file} is the state of account ${pushed.account}, not ${account}\n`);
    return false;
  }
  const store = stores.length === 1 ? stores[0] : undefined;
  if (store === undefined) {
    output.err(`Error: ${stores.length === 0 ? 'no configuration root' : 'several configuration roots'} under ${flags.path}: give the root as DIR or with --path\n`);
    return false;
  }
  const located: Located = { store, account };
  let ok = false;
  const locked = await underLock(output, located, flags.lockTimeout, async () => {
    const journal = await store.readJournal(account);
    // forced, a state is pushed beside an unfinished journal (a checkpoint put back): the next run checks the two fit
    if (!force && (journal.open.length > 0 || journal.outcomes.length > 0 || journal.damage !== undefined)) {
      output.err(`Error: an apply of account ${account} was interrupted and its journal is not finished; run adsctl apply first, so that what it sent is not lost\n`);
      return;
    }
    // a state that names a journal no longer there would be refused: with none, it holds everything
    if (journal.present !== true) delete pushed.journal_id;
    const outcome = await store.push(pushed, force);
    if ('refused' in outcome) {
      output.err(`Error: ${outcome.refused}\n`);
      return;
    }
    output.out(`Pushed the state of account ${account} (serial ${outcome.pushed}) to ${store.where}.\n`);
    ok = true;
  });
  return locked && ok;
}

/** `force-unlock ID [--force]`: the lock with that id removed from whichever of `stores` holds it; a live holder's only when forced. */
export async function forceUnlock(output: StateOutput, stores: readonly StateStore[], id: string, force: boolean): Promise<boolean> {
  let outcome: ForceUnlockOutcome;
  for (const store of stores) outcome ??= await store.forceUnlock(id, force);
  if (outcome === undefined) {
    output.err(`Error: no lock with id ${id}\n`);
    return false;
  }
  if ('live' in outcome) {
    output.err(`Error: ${liveLockMessage(outcome.live, outcome.why)}\n`);
    return false;
  }
  output.out(removedLock(outcome.removed));
  return true;
}
