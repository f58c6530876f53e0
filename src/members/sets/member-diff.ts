/**
 * `diffMembers`: what changes between two member sets, per identifier type: the members to add
 * (in the next set only) and to remove (in the previous set only). Both sets are sorted, so one
 * merge walk of each type finds them in linear time; an unchanged file gives empty deltas.
 */
import { compareDigests } from './digest-list.js';
import { DIGEST_BYTES, HASHED_TYPES, IDENTIFIER_TYPES, type HashedIdentifierType, type IdentifierType } from './identifier.js';
import { memberCount, partnerIdsKnown, type MemberSet } from './member-set.js';

/** Members added and removed of one type. */
interface DeltaCounts {
  added: number;
  removed: number;
}

/** The change from one member set to the next. */
export interface MemberDiff {
  /** Members of the next set that the previous one lacks: the Update to send. */
  added: MemberSet;
  /** Members of the previous set that the next one lacks: the Delete to send. */
  removed: MemberSet;
  /** Totals over every type. */
  counts: DeltaCounts & { unchanged: number };
  byType: Record<IdentifierType, DeltaCounts>;
}

/** Byte ranges `[start, end)` of a digest buffer. */
type Ranges = number[];

/** Copies the ranges of `from` into one new buffer. */
function gather(from: Buffer, ranges: Ranges, bytes: number): Buffer {
  const out = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (let i = 0; i < ranges.length; i += 2) at += from.copy(out, at, ranges[i]!, ranges[i + 1]!);
  return out;
}

/** Appends `[start, end)` to `ranges`, joining it to the last range when they touch. */
function extend(ranges: Ranges, start: number, end: number): void {
  if (ranges.length > 0 && ranges[ranges.length - 1] === start) ranges[ranges.length - 1] = end;
  else ranges.push(start, end);
}

function diffDigests(previous: Buffer, next: Buffer): { added: Buffer; removed: Buffer } {
  const added: Ranges = [];
  const removed: Ranges = [];
  let addedBytes = 0;
  let removedBytes = 0;
  let p = 0;
  let n = 0;
  while (p < previous.length && n < next.length) {
    const c = compareDigests(previous, p, next, n);
    if (c === 0) {
      p += DIGEST_BYTES;
      n += DIGEST_BYTES;
    } else if (c < 0) {
      extend(removed, p, p + DIGEST_BYTES);
      removedBytes += DIGEST_BYTES;
      p += DIGEST_BYTES;
    } else {
      extend(added, n, n + DIGEST_BYTES);
      addedBytes += DIGEST_BYTES;
      n += DIGEST_BYTES;
    }
  }
  if (p < previous.length) {
    extend(removed, p, previous.length);
    removedBytes += previous.length - p;
  }
  if (n < next.length) {
    extend(added, n, next.length);
    addedBytes += next.length - n;
  }
  return { added: gather(next, added, addedBytes), removed: gather(previous, removed, removedBytes) };
}

/**
 * The partner ids `next` adds and `previous` drops, by digest, each with its value where its set
 * knows it (a set read from the member store knows none: its dropped ids come without values).
 */
function diffPartners(previous: MemberSet, next: MemberSet): { added: Pick<MemberSet, 'partnerDigests' | 'partnerIds'>; removed: Pick<MemberSet, 'partnerDigests' | 'partnerIds'> } {
  const p = previous.partnerDigests;
  const n = next.partnerDigests;
  const added: number[] = [];
  const removed: number[] = [];
  let i = 0;
  let j = 0;
  while (i < p.length && j < n.length) {
    const c = compareDigests(p, i, n, j);
    if (c === 0) {
      i += DIGEST_BYTES;
      j += DIGEST_BYTES;
    } else if (c < 0) {
      removed.push(i);
      i += DIGEST_BYTES;
    } else {
      added.push(j);
      j += DIGEST_BYTES;
    }
  }
  for (; i < p.length; i += DIGEST_BYTES) removed.push(i);
  for (; j < n.length; j += DIGEST_BYTES) added.push(j);
  const pick = (set: MemberSet, offsets: number[]): Pick<MemberSet, 'partnerDigests' | 'partnerIds'> => ({
    partnerDigests: Buffer.concat(offsets.map((o) => set.partnerDigests.subarray(o, o + DIGEST_BYTES))),
    partnerIds: partnerIdsKnown(set) ? offsets.map((o) => set.partnerIds[o / DIGEST_BYTES]!) : [],
  });
  return { added: pick(next, added), removed: pick(previous, removed) };
}

/** The members `next` adds to `previous` and those it drops, per type, with counts. */
export function diffMembers(previous: MemberSet, next: MemberSet): MemberDiff {
  const addedDigests = {} as Record<HashedIdentifierType, Buffer>;
  const removedDigests = {} as Record<HashedIdentifierType, Buffer>;
  for (const t of HASHED_TYPES) {
    const d = diffDigests(previous.digests[t], next.digests[t]);
    addedDigests[t] = d.added;
    removedDigests[t] = d.removed;
  }
  const partner = diffPartners(previous, next);
  const added: MemberSet = { digests: addedDigests, ...partner.added };
  const removed: MemberSet = { digests: removedDigests, ...partner.removed };
  const byType = {} as Record<IdentifierType, DeltaCounts>;
  for (const t of IDENTIFIER_TYPES) byType[t] = { added: memberCount(added, t), removed: memberCount(removed, t) };
  const a = memberCount(added);
  const r = memberCount(removed);
  return { added, removed, counts: { added: a, removed: r, unchanged: memberCount(next) - a }, byType };
}
