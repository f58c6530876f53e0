/**
 * The work of `adsctl state migrate --from local|postgres`: every account of one backend copied
 * into the backend the configuration root names now, with its history and member stores, under
 * both locks. The command opens the two backends and closes them.
 */
import { loadState } from '../state/apply-journal.js';
import { keepsMembers, membersStoreOf } from '../members/store-path.js';
import { membershipModule } from '../members/load-membership.js';
import { recordedHash } from '../members/store-move.js';
import { stateDirOf } from '../state/location.js';
import type { AccountState } from '../state/state-file.js';
import type { HistoryStore, KeptVersion, MemberStores, StateStore } from '../state/store.js';
import { underLock, type StateOutput } from './state-account.js';

/** JSON with the keys of every object sorted: two states compare by content, not by key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))) : v));

/**
 * `state migrate --from`: every account of `source`, the root's `from` backend, is copied, under
 * both locks, to `destination`, the backend adsctl.yaml names, with its serial, its history and
 * its member stores, and read back to check it arrived whole. An account with an unfinished
 * journal is not moved (its apply is finished first); one the destination holds at the same
 * serial and content is already there; one it holds newer or different is refused unless
 * --force. The source is left as it was. False when anything was not moved.
 */
export async function migrateState(output: StateOutput, root: string, from: 'local' | 'postgres', source: StateStore, destination: StateStore, flags: { lockTimeout: number; force?: boolean }): Promise<boolean> {
  if (source.where === destination.where) {
    output.err(`Error: the state of ${root} is kept in ${destination.where} already; set the backend to move it to in ${root}/adsctl.yaml first (state: backend: ${from === 'local' ? 'postgres' : 'local'})\n`);
    return false;
  }
  const accounts = await source.accounts();
  let ok = true;
  let moved = 0;
  for (const account of accounts) {
    const done = await underLock(output, { store: source, account }, flags.lockTimeout, async () => {
      const locked = await underLock(output, { store: destination, account }, flags.lockTimeout, async () => {
        const loaded = await loadState(source, account, '');
        if (typeof loaded === 'string') {
          output.err(`Error: ${loaded}\n`);
          ok = false;
          return;
        }
        const { journal, state } = loaded;
        if (journal.open.length > 0 || journal.outcomes.length > 0 || journal.damage !== undefined) {
          output.err(`Error: account ${account}: an apply was interrupted and its journal is not finished; run adsctl apply with the old backend first, then migrate\n`);
          ok = false;
          return;
        }
        const there = await destination.read(account, state.endpoint);
        if (typeof there === 'object' && there.serial === state.serial && canonical(there) === canonical(state)) {
          output.out(`  ${account}: already in ${destination.where} (serial ${state.serial})\n`);
          return;
        }
        const pushed = await destination.push(state, flags.force === true);
        if ('refused' in pushed) {
          output.err(`Error: account ${account}: ${pushed.refused}\n`);
          ok = false;
          return;
        }
        const back = await destination.read(account, state.endpoint);
        if (typeof back === 'string' || canonical(back) !== canonical(state)) {
          output.err(`Error: account ${account}: the state read back from ${destination.where} is not the state written; the source is left as it was\n`);
          ok = false;
          return;
        }
        moved++;
        const stores = await copyMemberStores(state, stateDirOf(root), source, destination);
        const versions = await copyHistory(account, state.serial, source, destination);
        output.out(
          `  ${account}: serial ${state.serial}, ${Object.keys(state.resources).length} resources${versions > 0 ? `, ${versions} version${versions === 1 ? '' : 's'} of its history` : ''}${stores > 0 ? `, ${stores} member store${stores === 1 ? '' : 's'}` : ''}\n`,
        );
      });
      if (!locked) ok = false;
    });
    if (!done) ok = false;
  }
  output.out(`Migrated ${moved} of ${accounts.length} account${accounts.length === 1 ? '' : 's'} from ${source.where} to ${destination.where}.${moved > 0 ? ` The copies in ${source.where} are left as they were.` : ''}\n`);
  return ok;
}

/**
 * Copies the versions `source` keeps of an account, up to the serial just migrated, with their
 * times, writers and operations (the migrated serial's in place of the push that carried it);
 * answers how many.
 */
async function copyHistory(account: string, serial: number, source: HistoryStore, destination: HistoryStore): Promise<number> {
  const kept: KeptVersion[] = [];
  for (const v of await source.history(account)) {
    if (v.serial > serial) continue;
    const state = await source.version(account, v.serial);
    if (state !== undefined) kept.push({ serial: v.serial, written_at: v.written_at, written_by: v.written_by, operation: v.operation, state });
  }
  if (kept.length > 0) await destination.keepVersions(account, kept);
  return kept.length;
}

/** Copies the member stores of `state`'s memberships from `source` to `destination` (each keeps them in its rows or in `stateDir`); answers how many. */
async function copyMemberStores(state: AccountState, stateDir: string, source: MemberStores, destination: MemberStores): Promise<number> {
  const memberships = Object.entries(state.resources).filter(([, e]) => keepsMembers(e.kind));
  if (memberships.length === 0) return 0;
  const { copyUploaded } = await membershipModule();
  const [fromRows, toRows] = [source.memberRows?.(state.account), destination.memberRows?.(state.account)];
  let copied = 0;
  for (const [address, e] of memberships) {
    if (await copyUploaded(membersStoreOf(stateDir, state.account, address, e.id, fromRows), membersStoreOf(stateDir, state.account, address, e.id, toRows), recordedHash(e.applied))) copied++;
  }
  return copied;
}
