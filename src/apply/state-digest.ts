/**
 * A digest of an account's state as it would be written: how an apply that sent nothing tells
 * whether what its plan records (unchanged resources, the unmanaged objects seen, moves) changed
 * the state, and so whether to write it at all. Members are hashed in a fixed order (the header's
 * by name, resources by address, as the state file sorts them), one resource at a time, so the
 * state of a large account is never serialised whole.
 */
import { createHash } from 'node:crypto';
import type { AccountState } from '../state/state-file.js';

const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The SHA-256 of `state`'s members, the same for two states that would be written the same. */
export function stateDigest(state: AccountState): string {
  const hash = createHash('sha256');
  const { resources, ...head } = state;
  const members = head as Record<string, unknown>;
  for (const name of Object.keys(members).sort(order)) hash.update(`${JSON.stringify(name)}:${JSON.stringify(members[name])}\n`);
  for (const address of Object.keys(resources).sort(order)) hash.update(`${JSON.stringify(address)}=${JSON.stringify(resources[address])}\n`);
  return hash.digest('hex');
}
