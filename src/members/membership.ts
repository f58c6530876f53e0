/**
 * What the plan and apply share about a membership: the member file read through sets/
 * (normalised, hashed, never holding a raw identifier past the read), the members last uploaded
 * (the store beside the state, which must name this membership; none yet is an empty set), and the
 * value a plan compares — the set's hash and its counts against what was uploaded.
 */
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import { MEMBER_FILE_LIMIT } from '../kinds/member-file.js';
import { openProjectFile, readChunks } from '../manifest/project-file.js';
import type { IdentifierType } from './sets/identifier.js';
import { emptyCounts } from './sets/member-counts.js';
import { diffMembers, type MemberDiff } from './sets/member-diff.js';
import { readMemberFile, type MemberFileResult } from './sets/member-file.js';
import { emptyMemberSet, memberCount, memberSetHash, type MemberSet } from './sets/member-set.js';
import { memberStoreBytes, parseMemberStore, readMemberStore, writeMemberStore } from './sets/member-store.js';
import { rowName, type MembersStoreLocation } from './store-path.js';

/** How a membership resource names its file (its attributes). */
export interface MemberSource {
  /** The path as the process opens it. */
  path: string;
  /** The path as the manifest writes it (diagnostics show it). */
  shownAs: string;
  /** The project root (src/manifest/project-root.ts) the file must lie inside. */
  root: string;
  /** Where the manifest names the file, for a refusal of the file itself. */
  at?: SourceRange;
  type: unknown;
  defaultRegion: unknown;
}

/**
 * Reads a membership's file: opened only when it is a regular file inside the project root within
 * the service's size for a member list (src/manifest/project-file.ts), else refused at `at` with
 * nothing read; then read as far as its size when opened.
 */
export async function readMembers(source: MemberSource): Promise<MemberFileResult> {
  const opened = await openProjectFile({ path: source.path, shownAs: source.shownAs, root: source.root, limit: MEMBER_FILE_LIMIT });
  if (opened.problem !== undefined) return { value: undefined, counts: emptyCounts(), diagnostics: [errorAt(opened.problem.code, opened.problem.message, source.at)] };
  try {
    return await readMemberFile(source.path, {
      shownAs: source.shownAs,
      ...(typeof source.type === 'string' ? { type: source.type as IdentifierType } : {}),
      ...(typeof source.defaultRegion === 'string' ? { defaultRegion: source.defaultRegion } : {}),
      chunks: (chunkBytes) => readChunks(opened.handle, opened.size, chunkBytes),
    });
  } finally {
    await opened.handle.close();
  }
}

/** What is known of the members last uploaded to a membership: the set, or why it is not known. */
export type LastUploaded = { known: true; members: MemberSet } | { known: false; problem: string };

/**
 * The members last uploaded to the membership at `location` (an empty set when there is none to
 * look for: a membership not yet bound). They are known only from a store that names this
 * membership's live id, or from a store of an earlier release (naming none) whose content hash is
 * `recordedHash`, the hash the state records for the last upload. Anything else — no store, a
 * damaged one, one that belongs to another membership — is not known, and says why: the members
 * are never guessed.
 */
export async function lastUploaded(location: MembersStoreLocation | undefined, recordedHash?: string): Promise<LastUploaded> {
  if (location === undefined) return { known: true, members: emptyMemberSet() };
  const row = await location.rows?.read(rowName(location));
  let path = row === undefined ? location.path : `of ${location.owner.address} in ${location.rows!.where}`;
  let stored = row === undefined ? await readMemberStore(path) : parseMemberStore(row, path);
  if (stored.diagnostics.some((d) => d.code === 'member-store-missing')) {
    const legacy = await readMemberStore(location.legacyPath);
    if (!legacy.diagnostics.some((d) => d.code === 'member-store-missing')) [path, stored] = [location.legacyPath, legacy];
  }
  if (stored.value === undefined) {
    const missing = stored.diagnostics.some((d) => d.code === 'member-store-missing');
    const none = location.rows === undefined ? `its member store ${location.path} does not exist` : `its member store is neither in ${location.rows.where} nor in ${location.path}`;
    return { known: false, problem: missing ? none : stored.diagnostics.map((d) => d.message).join('; ') };
  }
  const { owner, members, hash } = stored.value;
  if (owner === undefined) {
    if (recordedHash !== undefined && hash === recordedHash) return { known: true, members };
    return { known: false, problem: `its member store ${path} names no membership (an earlier adsctl wrote it) and does not hold the members the state records as last uploaded` };
  }
  if (owner.id !== location.owner.id) return { known: false, problem: `the member store ${path} belongs to ${owner.address} (id ${owner.id}), not to this membership (id ${location.owner.id})` };
  return { known: true, members };
}

/**
 * Records `members` as uploaded to the membership at `location` (its folder made when needed),
 * naming it; a file of an earlier release under the address is then removed.
 */
export async function recordUploaded(location: MembersStoreLocation, members: MemberSet): Promise<Diagnostic[]> {
  if (location.rows !== undefined) {
    await location.rows.write(rowName(location), memberStoreBytes(members, location.owner).bytes);
    // the files of a runner that kept them before the database did
    await Promise.all([rm(location.path, { force: true }), rm(location.legacyPath, { force: true })]);
    return [];
  }
  await mkdir(dirname(location.path), { recursive: true, mode: 0o700 });
  const problems = (await writeMemberStore(location.path, members, location.owner, location.fence)).diagnostics;
  if (problems.length === 0) await rm(location.legacyPath, { force: true });
  return problems;
}

/**
 * Moves the members last uploaded from the membership at `from` to `to` (the same live id under a
 * new address: `state mv`), so the store names its new address and a store of an earlier release,
 * named by the old address, is not left behind. `recordedHash` is what the state records as last
 * uploaded. Members that are not known stay as they are, and the problem is returned: the next
 * plan refuses the membership and says what to do.
 */
export async function moveUploaded(from: MembersStoreLocation, to: MembersStoreLocation, recordedHash: string | undefined): Promise<string | undefined> {
  const known = await lastUploaded(from, recordedHash);
  if (!known.known) return known.problem;
  const problems = await recordUploaded(to, known.members);
  if (problems.length > 0) return problems.map((d) => d.message).join('; ');
  await rm(from.legacyPath, { force: true });
  return undefined;
}

/**
 * Copies the members last uploaded from the store at `from` to the one at `to` (the same
 * membership in another backend: `state migrate`), leaving `from` as it was; false when they are
 * not known there (nothing is copied, and the next plan says what to do).
 */
export async function copyUploaded(from: MembersStoreLocation, to: MembersStoreLocation, recordedHash: string | undefined): Promise<boolean> {
  const known = await lastUploaded(from, recordedHash);
  if (!known.known) return false;
  const { bytes } = memberStoreBytes(known.members, to.owner);
  if (to.rows !== undefined) await to.rows.write(rowName(to), bytes);
  else if ((await recordUploadedFile(to, known.members)).length > 0) return false;
  return true;
}

/** Writes the store file of `location` (its folder made when needed). */
async function recordUploadedFile(location: MembersStoreLocation, members: MemberSet): Promise<Diagnostic[]> {
  await mkdir(dirname(location.path), { recursive: true, mode: 0o700 });
  return (await writeMemberStore(location.path, members, location.owner, location.fence)).diagnostics;
}

/** Forgets the members last uploaded to the membership at `location` (it was removed). */
export async function forgetUploaded(location: MembersStoreLocation): Promise<void> {
  if (location.rows === undefined) location.fence?.();
  await Promise.all([rm(location.path, { force: true }), rm(location.legacyPath, { force: true }), location.rows?.remove(rowName(location))]);
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
