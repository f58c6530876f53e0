/**
 * Where the members last uploaded for a membership resource are kept: a folder beside the
 * account's state file, one file per membership named by a hash of its live id (the id of its
 * audience or list), so a rename of the address (`state mv`, `moved:`) keeps it. Files of earlier
 * releases were named by a hash of the address; they are still read there. Only hashes are in
 * them (sets/member-store.ts), never identifiers, and each names the membership it belongs to.
 */
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import type { MemberRows } from '../state/member-rows.js';
import { stateStem } from '../state/state-file.js';

/** The folder of an account's member files. */
function membersDir(stateDir: string, accountKey: string): string {
  return join(stateDir, `${stateStem(accountKey)}.members`);
}

const hashed = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** The member file of the resource at `address` as earlier releases named it (by address). */
function membersStorePath(stateDir: string, accountKey: string, address: string): string {
  return join(membersDir(stateDir, accountKey), `${hashed(address)}.bin`);
}

/** Where a membership's members last uploaded are kept, and whom the file must name. */
export interface MembersStoreLocation {
  /** The database that keeps the store, when the state is in one (src/state/member-rows.ts); the files are then read only where it has none. */
  rows?: MemberRows;
  /** The file, named by the live id. */
  path: string;
  /** The file as earlier releases named it, by address: read when `path` does not exist. */
  legacyPath: string;
  /** The membership the file must name. */
  owner: { address: string; id: string };
  /** Checked just before a write of the file becomes visible: throws when the run no longer holds the account's lock (src/state/write-atomic.ts). */
  fence?: () => void;
}

/** The store of the membership at `address`, bound to the live `id`. */
export function membersStoreOf(stateDir: string, accountKey: string, address: string, id: string, rows?: MemberRows, fence?: () => void): MembersStoreLocation {
  return {
    path: join(membersDir(stateDir, accountKey), `id-${hashed(`id:${id}`)}.bin`),
    legacyPath: membersStorePath(stateDir, accountKey, address),
    owner: { address, id },
    ...(rows === undefined ? {} : { rows }),
    ...(fence === undefined ? {} : { fence }),
  };
}

/** The name of a location's store among its account's rows. */
export const rowName = (location: MembersStoreLocation): string => basename(location.path);

/** Whether a state entry of `kind` is a membership, which has a member store. */
export const keepsMembers = (kind: string): boolean => kind === 'audience_members' || kind === 'do_not_reach_members';
