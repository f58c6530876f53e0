/**
 * The member store: one compact binary file per audience membership, so the next plan can diff
 * a member file against what was last sent without keeping any identifier in the state. It holds
 * SHA-256 digests only, partner user ids' too, and names the membership it belongs to — its
 * address and live id — so a file put in another's place is recognised. Layout:
 *
 * ```
 * 8 bytes   magic "adsctlMS"
 * u32 BE    format version (2)
 * u32 BE    the owner's byte length, then the owner as UTF-8 JSON {"address", "id"}, then its SHA-256
 * ...       the set's canonical serialisation (member-set.ts): six u32 counts, then the digests
 *           of each type, partner ids' last
 * 32 bytes  the content hash (SHA-256 of the tagged canonical serialisation, as `memberSetHash`)
 * ```
 *
 * Version 1, written by earlier releases, lacks the owner and kept partner ids as sent (each a u32
 * byte length and UTF-8 bytes); it is still read, without an owner, and written again as version 2.
 *
 * Written atomically: a temporary file in the same directory (mode 0600), fsync, rename over the
 * target, fsync of the directory; a reader sees the old file or the new one, never a part. Read
 * back with checks (magic, version, lengths, checksum, order); any fault is an error value
 * naming the path.
 */
import { createHash, randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errorAt, type Result } from '../../diag/diagnostic.js';
import { EnvironmentError } from '../../diag/environment-error.js';
import { compareDigests } from './digest-list.js';
import { DIGEST_BYTES, HASHED_TYPES, IDENTIFIER_TYPES, type HashedIdentifierType } from './identifier.js';
import { partnerSet } from './member-builder.js';
import { canonicalPieces, contentHasher, type MemberSet } from './member-set.js';

const MAGIC = Buffer.from('adsctlMS', 'latin1');
const VERSION = 2;
/** The version without an owner, still read. */
const OWNERLESS_VERSION = 1;
const HEADER_BYTES = MAGIC.length + 4;
const COUNTS_BYTES = 4 * IDENTIFIER_TYPES.length;

/** The membership a store belongs to: its address and its live id (the audience's or list's id). */
interface StoreOwner {
  address: string;
  id: string;
}

/** A member store read back: the members and their content hash. */
interface StoredMembers {
  members: MemberSet;
  /** The content hash (`memberSetHash`), as the file records it and its bytes confirm. */
  hash: string;
  /** The membership it names; absent in a file of format version 1, which names none. */
  owner?: StoreOwner;
}

const errno = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

/** Writes every byte of `pieces` through `handle`, however the system splits the writes. */
async function writeAll(handle: import('node:fs/promises').FileHandle, pieces: readonly Buffer[]): Promise<void> {
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; ) at += (await handle.write(piece, at, piece.length - at)).bytesWritten;
  }
}

/** The file's pieces: header with its owner, canonical serialisation (partner ids joined), checksum. */
function filePieces(set: MemberSet, owner: StoreOwner): { pieces: Buffer[]; hash: Buffer } {
  const ownerBytes = Buffer.from(JSON.stringify({ address: owner.address, id: owner.id }), 'utf8');
  const header = Buffer.alloc(HEADER_BYTES + 4);
  MAGIC.copy(header, 0);
  header.writeUInt32BE(VERSION, MAGIC.length);
  header.writeUInt32BE(ownerBytes.length, HEADER_BYTES);
  const canonical = canonicalPieces(set);
  const h = contentHasher();
  for (const piece of canonical) h.update(piece);
  const hash = h.digest();
  const fixed = COUNTS_BYTES / 4 + HASHED_TYPES.length;
  const ownerSum = createHash('sha256').update(ownerBytes).digest();
  const pieces = [Buffer.concat([header, ownerBytes, ownerSum]), Buffer.concat(canonical.slice(0, COUNTS_BYTES / 4)), ...canonical.slice(COUNTS_BYTES / 4, fixed), Buffer.concat(canonical.slice(fixed)), hash];
  return { pieces, hash };
}

/**
 * Writes `set`, the members uploaded to `owner`, to the member store file `path` atomically, mode
 * 0600; the value is the set's content hash. A failure (a missing directory, no space) is an
 * error naming the path, and leaves any earlier file as it was.
 */
export async function writeMemberStore(path: string, set: MemberSet, owner: StoreOwner, fence?: () => void): Promise<Result<string>> {
  const { pieces, hash } = filePieces(set, owner);
  const temporary = join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  let written = false;
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.chmod(0o600);
      await writeAll(handle, pieces);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // written only while the run holds the account's lock; a run that took it over removes the
    // file written aside (src/state/leftovers.ts), so a rename after that fails and says so
    fence?.();
    await rename(temporary, path).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') fence?.();
      throw error;
    });
    written = true;
    await syncDirectory(dirname(path));
    return { value: hash.toString('hex'), diagnostics: [] };
  } catch (error) {
    if (!written) await unlink(temporary).catch(() => undefined);
    // a lock lost is the run's to stop on, not a problem of this file
    if (error instanceof EnvironmentError) throw error;
    return { value: undefined, diagnostics: [errorAt('member-store-write', `cannot write the member store ${path} (${errno(error)})`)] };
  }
}

/** Flushes a rename to disk; file systems that cannot sync a directory are left to their own guarantees. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r').catch(() => undefined);
  if (handle === undefined) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}

/** A damaged file: the problem, naming the path. */
const damaged = (path: string, problem: string): Result<StoredMembers> => ({
  value: undefined,
  diagnostics: [errorAt('member-store-damaged', `the member store ${path} ${problem}`)],
});

/** The owner a version 2 file names after its header, and where the counts start; a string is the problem. */
function ownerOf(bytes: Buffer): { owner: StoreOwner; at: number } | string {
  if (bytes.length < HEADER_BYTES + 4) return `is truncated (${bytes.length} bytes)`;
  const length = bytes.readUInt32BE(HEADER_BYTES);
  const start = HEADER_BYTES + 4;
  if (start + length + DIGEST_BYTES > bytes.length) return 'is truncated (in the membership it names)';
  const text = bytes.subarray(start, start + length);
  if (!createHash('sha256').update(text).digest().equals(bytes.subarray(start + length, start + length + DIGEST_BYTES))) return 'does not match its checksum (in the membership it names)';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString('utf8'));
  } catch {
    return 'names its membership in a form this adsctl does not read';
  }
  const { address, id } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof address !== 'string' || typeof id !== 'string') return 'names its membership in a form this adsctl does not read';
  return { owner: { address, id }, at: start + length + DIGEST_BYTES };
}

/**
 * Reads the member store file `path` back, checking its magic, version, owner, lengths, checksums
 * and order. A missing file is the error `member-store-missing` (no membership was stored yet); any
 * other fault is `member-store-damaged` or `member-store-read`, naming the path.
 */
export async function readMemberStore(path: string): Promise<Result<StoredMembers>> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = errno(error);
    if (code === 'ENOENT') return { value: undefined, diagnostics: [errorAt('member-store-missing', `the member store ${path} does not exist`)] };
    return { value: undefined, diagnostics: [errorAt('member-store-read', `cannot read the member store ${path} (${code})`)] };
  }
  return parseMemberStore(bytes, path);
}

/** The bytes of a member store holding `set`, uploaded to `owner` (as `writeMemberStore` writes them), with the set's content hash. */
export function memberStoreBytes(set: MemberSet, owner: StoreOwner): { bytes: Buffer; hash: string } {
  const { pieces, hash } = filePieces(set, owner);
  return { bytes: Buffer.concat(pieces), hash: hash.toString('hex') };
}

/** Reads member store bytes, with the checks of `readMemberStore`; `path` names them in problems. */
export function parseMemberStore(bytes: Buffer, path: string): Result<StoredMembers> {
  if (bytes.length < MAGIC.length || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return damaged(path, 'is not a member store file');
  if (bytes.length < HEADER_BYTES) return damaged(path, `is truncated (${bytes.length} bytes)`);
  const version = bytes.readUInt32BE(MAGIC.length);
  if (version !== VERSION && version !== OWNERLESS_VERSION) return damaged(path, `has format version ${version}, and this adsctl reads versions ${OWNERLESS_VERSION} and ${VERSION}`);
  let owner: StoreOwner | undefined;
  let start = HEADER_BYTES;
  if (version === VERSION) {
    const named = ownerOf(bytes);
    if (typeof named === 'string') return damaged(path, named);
    ({ owner, at: start } = named);
  }
  if (bytes.length < start + COUNTS_BYTES + DIGEST_BYTES) return damaged(path, `is truncated (${bytes.length} bytes)`);

  const end = bytes.length - DIGEST_BYTES;
  const counts = IDENTIFIER_TYPES.map((_, i) => bytes.readUInt32BE(start + 4 * i));
  let at = start + COUNTS_BYTES;
  const digests = {} as Record<HashedIdentifierType, Buffer>;
  for (const [i, t] of HASHED_TYPES.entries()) {
    const length = counts[i]! * DIGEST_BYTES;
    if (at + length > end) return damaged(path, `is truncated (the ${t} digests run past its end)`);
    digests[t] = bytes.subarray(at, at + length);
    at += length;
  }
  const partners = counts[HASHED_TYPES.length]!;
  let partnerDigests: Buffer = Buffer.alloc(0);
  const partnerIds: string[] = [];
  if (version === VERSION) {
    if (at + partners * DIGEST_BYTES > end) return damaged(path, 'is truncated (the partner_user_id digests run past its end)');
    partnerDigests = bytes.subarray(at, at + partners * DIGEST_BYTES);
    at += partners * DIGEST_BYTES;
  } else {
    // version 1 kept partner ids as sent
    for (let k = 0; k < partners; k++) {
      if (at + 4 > end) return damaged(path, 'is truncated (in its partner user ids)');
      const length = bytes.readUInt32BE(at);
      if (at + 4 + length > end) return damaged(path, 'is truncated (in its partner user ids)');
      partnerIds.push(bytes.toString('utf8', at + 4, at + 4 + length));
      at += 4 + length;
    }
  }
  if (at !== end) return damaged(path, `has ${end - at} bytes more than its counts account for`);
  const hash = contentHasher().update(bytes.subarray(start, end)).digest();
  if (!hash.equals(bytes.subarray(end))) return damaged(path, 'does not match its checksum');
  for (const [t, d] of [...HASHED_TYPES.map((t) => [t, digests[t]] as const), ['partner_user_id', partnerDigests] as const]) {
    for (let off = DIGEST_BYTES; off < d.length; off += DIGEST_BYTES) {
      if (compareDigests(d, off - DIGEST_BYTES, d, off) >= 0) return damaged(path, `holds its ${t} digests out of order`);
    }
  }
  for (let k = 1; k < partnerIds.length; k++) if (!(partnerIds[k - 1]! < partnerIds[k]!)) return damaged(path, 'holds its partner user ids out of order');
  const partner = version === VERSION ? { partnerDigests, partnerIds: [] } : partnerSet(partnerIds);
  return { value: { members: { digests, ...partner }, hash: hash.toString('hex'), ...(owner === undefined ? {} : { owner }) }, diagnostics: [] };
}
