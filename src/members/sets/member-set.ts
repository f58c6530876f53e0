/**
 * The members of a custom audience, held compactly: for each hashed identifier type the sorted
 * distinct SHA-256 digests in one buffer (32 bytes a member); partner user ids by their digests
 * too, with their values as sent beside them while they are known (read from a file). A content
 * hash over a canonical serialisation of digests names the membership in plans: equal sets have
 * equal hashes whatever file or order they were read from, and a set kept as digests alone (the
 * member store) has the same hash as the file it came from.
 */
import { createHash, type Hash } from 'node:crypto';
import { DIGEST_BYTES, HASHED_TYPES, IDENTIFIER_TYPES, type HashedIdentifierType, type IdentifierType } from './identifier.js';

/** Distinct members by identifier type. */
export interface MemberSet {
  /** Per hashed type, its members' SHA-256 digests: 32 bytes each, in ascending byte order, distinct, concatenated. */
  readonly digests: Readonly<Record<HashedIdentifierType, Buffer>>;
  /** The `partner_user_id` members' SHA-256 digests (of the value as sent), like `digests`. */
  readonly partnerDigests: Buffer;
  /**
   * The partner ids as sent (trimmed, not hashed: the API takes them so), in the order of
   * `partnerDigests`, one for each; or none where only their digests are known (a set read from
   * the member store), since adsctl never keeps them. Sending a set needs them.
   */
  readonly partnerIds: readonly string[];
}

/** Whether the values of every partner id of `set` are known, as sending it needs. */
export const partnerIdsKnown = (set: MemberSet): boolean => set.partnerIds.length * DIGEST_BYTES === set.partnerDigests.length;

/** A set without members. */
export function emptyMemberSet(): MemberSet {
  return {
    digests: { email: Buffer.alloc(0), phone_number: Buffer.alloc(0), handle: Buffer.alloc(0), device_id: Buffer.alloc(0), service_id: Buffer.alloc(0) },
    partnerDigests: Buffer.alloc(0),
    partnerIds: [],
  };
}

/** Members of `type` in `set`, or of every type when `type` is left out. */
export function memberCount(set: MemberSet, type?: IdentifierType): number {
  if (type === 'partner_user_id') return set.partnerDigests.length / DIGEST_BYTES;
  if (type !== undefined) return set.digests[type].length / DIGEST_BYTES;
  let n = set.partnerDigests.length / DIGEST_BYTES;
  for (const t of HASHED_TYPES) n += set.digests[t].length / DIGEST_BYTES;
  return n;
}

/** Members of each type in `set`. */
export function memberCounts(set: MemberSet): Record<IdentifierType, number> {
  const counts = {} as Record<IdentifierType, number>;
  for (const t of IDENTIFIER_TYPES) counts[t] = memberCount(set, t);
  return counts;
}

const u32 = (n: number): Buffer => {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n, 0);
  return b;
};

/**
 * The canonical serialisation of `set`, in pieces: the member count of each type (unsigned
 * 32-bit big-endian, in the order of `IDENTIFIER_TYPES`), then the digests of each type in that
 * order, partner ids' last. The member store file holds exactly these bytes between its owner
 * and its checksum. (A set without partner ids serialises as it did when partner ids were kept as
 * sent, so its hash has not changed.)
 */
export function canonicalPieces(set: MemberSet): Buffer[] {
  const pieces: Buffer[] = IDENTIFIER_TYPES.map((t) => u32(memberCount(set, t)));
  for (const t of HASHED_TYPES) pieces.push(set.digests[t]);
  pieces.push(set.partnerDigests);
  return pieces;
}

/** What the content hash covers before the canonical bytes: the format, so a new format never collides with this one. */
const HASH_TAG = 'adsctl audience members 1\n';

/** A hash ready to take the canonical pieces of a set. */
export const contentHasher = (): Hash => createHash('sha256').update(HASH_TAG);

/** The content hash of `set`: lower-case hex SHA-256 over its canonical serialisation, the membership's identity in plans. */
export function memberSetHash(set: MemberSet): string {
  const h = contentHasher();
  for (const piece of canonicalPieces(set)) h.update(piece);
  return h.digest('hex');
}
