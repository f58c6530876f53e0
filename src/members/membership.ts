/**
 * What the plan and apply share about a membership: the member file read through src/audience/
 * (normalised, hashed, never holding a raw identifier past the read), the members last uploaded
 * (the store beside the state; none yet is an empty set), and the value a plan compares — the
 * set's hash and its counts against what was uploaded.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Diagnostic } from '../diag/diagnostic.js';
import type { IdentifierType } from '../audience/identifier.js';
import { diffMembers, type MemberDiff } from '../audience/member-diff.js';
import { readMemberFile, type MemberFileResult } from '../audience/member-file.js';
import { emptyMemberSet, memberCount, memberSetHash, type MemberSet } from '../audience/member-set.js';
import { readMemberStore, writeMemberStore } from '../audience/member-store.js';

/** How a membership resource names its file (its attributes). */
export interface MemberSource {
  /** The path as the process opens it. */
  path: string;
  /** The path as the manifest writes it (diagnostics show it). */
  shownAs: string;
  type: unknown;
  defaultRegion: unknown;
}

/** Reads a membership's file. */
export function readMembers(source: MemberSource): Promise<MemberFileResult> {
  return readMemberFile(source.path, {
    shownAs: source.shownAs,
    ...(typeof source.type === 'string' ? { type: source.type as IdentifierType } : {}),
    ...(typeof source.defaultRegion === 'string' ? { defaultRegion: source.defaultRegion } : {}),
  });
}

/** The members last uploaded, from the store at `path`; an empty set when none was stored. */
export async function lastUploaded(path: string | undefined): Promise<{ members?: MemberSet; diagnostics: Diagnostic[] }> {
  if (path === undefined) return { members: emptyMemberSet(), diagnostics: [] };
  const stored = await readMemberStore(path);
  if (stored.value !== undefined) return { members: stored.value.members, diagnostics: [] };
  if (stored.diagnostics.every((d) => d.code === 'member-store-missing')) return { members: emptyMemberSet(), diagnostics: [] };
  return { diagnostics: stored.diagnostics };
}

/** Records `members` as uploaded, in the store at `path` (its folder made when needed). */
export async function recordUploaded(path: string, members: MemberSet): Promise<Diagnostic[]> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  return (await writeMemberStore(path, members)).diagnostics;
}

/** The value of a membership in a plan: the set's hash and counts, never a member. */
export interface MembersValue {
  hash: string;
  count: number;
  added: number;
  removed: number;
  unchanged: number;
}

/** The plan's value of `next` against the members last uploaded, and the difference. */
export function membersValue(previous: MemberSet, next: MemberSet): { value: MembersValue; diff: MemberDiff } {
  const diff = diffMembers(previous, next);
  return { value: { hash: memberSetHash(next), count: memberCount(next), added: diff.counts.added, removed: diff.counts.removed, unchanged: diff.counts.unchanged }, diff };
}
