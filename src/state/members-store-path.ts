/**
 * Where the members last uploaded for a membership resource are kept: a folder beside the
 * account's state file, one file per resource named by a hash of its address (addresses are not
 * file names). Only hashes are in them (src/audience/), never identifiers.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { stateStem } from './state-file.js';

/** The folder of an account's member files. */
export function membersDir(stateDir: string, accountKey: string): string {
  return join(stateDir, `${stateStem(accountKey)}.members`);
}

/** The member file of the resource at `address`. */
export function membersStorePath(stateDir: string, accountKey: string, address: string): string {
  return join(membersDir(stateDir, accountKey), `${createHash('sha256').update(address).digest('hex').slice(0, 32)}.bin`);
}
