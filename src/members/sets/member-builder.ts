/**
 * Collects normalised identifier values into a `MemberSet`: each hashed value goes to be hashed
 * at once (`digest-hasher.ts`; only its 32-byte digest is kept), partner ids are kept as sent;
 * `finish` (or `build`, without the worker thread) sorts and drops duplicates.
 */
import { hash } from 'node:crypto';
import { DigestHasher } from './digest-hasher.js';
import { DIGEST_BYTES, HASHED_TYPES, type HashedIdentifierType, type IdentifierType } from './identifier.js';
import type { MemberSet } from './member-set.js';

/** The SHA-256 digest the service expects for a normalised value (of its UTF-8 bytes). */
const digestOf = (value: string): Buffer => hash('sha256', value, 'buffer');

/** A member set being collected. */
export class MemberSetBuilder {
  private readonly hasher: DigestHasher;
  private partner: string[] = [];
  private count = 0;

  /** `parallel`: whether a large set may be hashed on a worker thread (then `finish` must be used). */
  constructor(private readonly parallel = false) {
    this.hasher = new DigestHasher(parallel);
  }

  /** Adds the normalised `value` of `type`. */
  add(type: IdentifierType, value: string): void {
    this.count++;
    if (type === 'partner_user_id') {
      // a fresh copy: a slice would keep the whole chunk of the file it was cut from alive
      this.partner.push(Buffer.from(value, 'utf8').toString('utf8'));
    } else this.hasher.add(type, value);
  }

  /** Values added so far, duplicates included. */
  get added(): number {
    return this.count;
  }

  /** A promise to wait for before adding more, when the worker thread is behind (undefined: go on). */
  backlog(): Promise<void> | undefined {
    return this.hasher.backlog();
  }

  /** Stops any worker thread (the reading failed and the set is not wanted). */
  close(): void {
    this.hasher.close();
  }

  /** Waits for every digest, then builds the set. */
  async finish(): Promise<MemberSet> {
    await this.hasher.finish();
    return this.collect();
  }

  /** The distinct members of a builder made without `parallel`; the builder is emptied. */
  build(): MemberSet {
    if (this.parallel) throw new Error('a parallel MemberSetBuilder is finished with finish()');
    return this.collect();
  }

  private collect(): MemberSet {
    const digests = {} as Record<HashedIdentifierType, Buffer>;
    for (const t of HASHED_TYPES) digests[t] = this.hasher.lists[t].sortedDistinct();
    const partner = partnerSet(this.partner);
    this.partner = [];
    return { digests, ...partner };
  }
}

/** Distinct partner ids by their digests, in digest order, each value beside its digest. */
export function partnerSet(values: readonly string[]): { partnerDigests: Buffer; partnerIds: string[] } {
  const pairs = values.map((id) => ({ id, digest: digestOf(id) })).sort((a, b) => Buffer.compare(a.digest, b.digest));
  const kept = pairs.filter((p, i) => i === 0 || !p.digest.equals(pairs[i - 1]!.digest));
  return { partnerDigests: Buffer.concat(kept.map((p) => p.digest)), partnerIds: kept.map((p) => p.id) };
}

/** A member set of already normalised values, for callers that have them in memory (and tests). */
export function memberSetOf(values: Partial<Record<IdentifierType, readonly string[]>>): MemberSet {
  const builder = new MemberSetBuilder();
  for (const [type, list] of Object.entries(values) as Array<[IdentifierType, readonly string[]]>) for (const v of list) builder.add(type, v);
  return builder.build();
}

/** The digests of `set`'s members of `type` as lower-case hex, in order. */
export function digestHexes(set: MemberSet, type: HashedIdentifierType): string[] {
  const buf = set.digests[type];
  const out: string[] = [];
  for (let off = 0; off < buf.length; off += DIGEST_BYTES) out.push(buf.toString('hex', off, off + DIGEST_BYTES));
  return out;
}
