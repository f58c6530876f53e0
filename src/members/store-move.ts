/**
 * The members last uploaded follow a membership to its new address: what `state mv` and the
 * `moved` entries of a manifest (applied by apply) both do after they rewrite the state, so the
 * next plan finds the store where the membership now is.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { MemberRows } from '../state/member-rows.js';
import type { StateResource } from '../state/state-file.js';
import { membershipModule } from './load-membership.js';
import { keepsMembers, membersStoreOf } from './store-path.js';

/** A membership moved from one address to another: its live id and the hash the state records for its last upload. */
export interface MembershipMove {
  from: string;
  to: string;
  id: string;
  hash: string | undefined;
}

/** The content hash the state records for a membership's last upload. */
export function recordedHash(applied: Readonly<Record<string, unknown>>): string | undefined {
  const members = applied['members'];
  const hash = members !== null && typeof members === 'object' ? (members as Record<string, unknown>)['hash'] : undefined;
  return typeof hash === 'string' ? hash : undefined;
}

/** The memberships among state entries moved from one address to another (`[from, to, entry]`). */
export function membershipMoves(moves: ReadonlyArray<readonly [string, string, StateResource]>): MembershipMove[] {
  return moves.flatMap(([from, to, e]) => (keepsMembers(e.kind) ? [{ from, to, id: e.id, hash: recordedHash(e.applied) }] : []));
}

/**
 * Moves the member stores of `moves` in each of `stateDirs` (and in the database rows, when the
 * state is kept there); a store that is not there is skipped. Returns the problems, by new
 * address: those members stay unknown, and the next plan says what to do.
 */
export async function moveMemberStores(stateDirs: readonly string[], account: string, rows: MemberRows | undefined, moves: readonly MembershipMove[]): Promise<Array<{ to: string; problem: string }>> {
  if (moves.length === 0) return [];
  const { moveUploaded } = await membershipModule();
  const problems: Array<{ to: string; problem: string }> = [];
  for (const m of moves) {
    for (const dir of stateDirs) {
      const from = membersStoreOf(dir, account, m.from, m.id, rows);
      if (!existsSync(from.path) && !existsSync(from.legacyPath) && (rows === undefined || (await rows.read(basename(from.path))) === undefined)) continue;
      const problem = await moveUploaded(from, membersStoreOf(dir, account, m.to, m.id, rows), m.hash);
      if (problem !== undefined) problems.push({ to: m.to, problem });
    }
  }
  return problems;
}
