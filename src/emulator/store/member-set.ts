/**
 * Audience membership held compactly: each member is one 32-byte key (a SHA-256 value), packed
 * into one growable byte array, with an open-addressing index of 4-byte positions beside it. A
 * 1,000,000-member set costs about 32 MB of keys plus 8 MB of index, where JS strings would cost
 * several times that. Sets change inside store transactions: changes are applied at once (so
 * counts are current), remembered until the transaction ends, undone on rollback and handed to
 * the journal on commit as the keys actually added or removed.
 */

/** Bytes of one member key. */
export const KEY_BYTES = 32;

/** A set of 32-byte keys. */
class KeySet32 {
  private keys = new Uint8Array(KEY_BYTES * 16);
  private count = 0;
  /** Slot → position + 1 of the key in `keys`; 0 is an empty slot. Kept at most half full. */
  private index = new Uint32Array(32);
  private mask = 31;

  get size(): number {
    return this.count;
  }

  /** Adds the key at `buf[off..off+32)`; false when it was there already. */
  add(buf: Uint8Array, off = 0): boolean {
    let s = this.slotOf(buf, off);
    if (s >= 0) return false;
    if ((this.count + 1) * 2 > this.index.length) {
      this.growIndex();
      s = this.slotOf(buf, off);
    }
    if ((this.count + 1) * KEY_BYTES > this.keys.length) this.growKeys();
    this.keys.set(buf.subarray(off, off + KEY_BYTES), this.count * KEY_BYTES);
    this.index[~s] = this.count + 1;
    this.count++;
    return true;
  }

  has(buf: Uint8Array, off = 0): boolean {
    return this.slotOf(buf, off) >= 0;
  }

  /** Removes the key at `buf[off..off+32)`; false when it was not there. */
  delete(buf: Uint8Array, off = 0): boolean {
    const s = this.slotOf(buf, off);
    if (s < 0) return false;
    const pos = this.index[s]! - 1;
    this.removeSlot(s);
    const last = this.count - 1;
    if (pos !== last) {
      // the last key moves into the freed position, so the keys stay packed
      const ls = this.slotOf(this.keys, last * KEY_BYTES);
      this.keys.copyWithin(pos * KEY_BYTES, last * KEY_BYTES, last * KEY_BYTES + KEY_BYTES);
      this.index[ls] = pos + 1;
    }
    this.count--;
    return true;
  }

  /** Every key, concatenated (a copy). */
  toBuffer(): Buffer {
    return Buffer.from(this.keys.subarray(0, this.count * KEY_BYTES));
  }

  /** Bytes held by the arrays, for reports. */
  get bytes(): number {
    return this.keys.byteLength + this.index.byteLength;
  }

  private hash(buf: Uint8Array, off: number): number {
    // keys should be SHA-256 values, but a client may send patterned hex: mix all of it
    let h = 0x811c9dc5;
    for (let i = off; i < off + KEY_BYTES; i += 4) {
      const w = buf[i]! | (buf[i + 1]! << 8) | (buf[i + 2]! << 16) | (buf[i + 3]! << 24);
      h = Math.imul(h ^ w, 0x01000193);
      h ^= h >>> 15;
    }
    return h >>> 0;
  }

  private same(pos: number, buf: Uint8Array, off: number): boolean {
    const base = pos * KEY_BYTES;
    for (let i = 0; i < KEY_BYTES; i++) if (this.keys[base + i] !== buf[off + i]) return false;
    return true;
  }

  /** The slot holding the key, or `~slot` of the empty slot where it would go. */
  private slotOf(buf: Uint8Array, off: number): number {
    let s = this.hash(buf, off) & this.mask;
    for (;;) {
      const p = this.index[s]!;
      if (p === 0) return ~s;
      if (this.same(p - 1, buf, off)) return s;
      s = (s + 1) & this.mask;
    }
  }

  /** Empties `hole` by shifting back the entries of its probe run (no tombstones). */
  private removeSlot(hole: number): void {
    let i = hole;
    let j = hole;
    for (;;) {
      j = (j + 1) & this.mask;
      const q = this.index[j]!;
      if (q === 0) break;
      const home = this.hash(this.keys, (q - 1) * KEY_BYTES) & this.mask;
      if (((j - home) & this.mask) >= ((j - i) & this.mask)) {
        this.index[i] = q;
        i = j;
      }
    }
    this.index[i] = 0;
  }

  private growIndex(): void {
    const size = this.index.length * 2;
    this.index = new Uint32Array(size);
    this.mask = size - 1;
    for (let p = 0; p < this.count; p++) {
      let s = this.hash(this.keys, p * KEY_BYTES) & this.mask;
      while (this.index[s] !== 0) s = (s + 1) & this.mask;
      this.index[s] = p + 1;
    }
  }

  private growKeys(): void {
    const next = new Uint8Array(this.keys.length * 2);
    next.set(this.keys.subarray(0, this.count * KEY_BYTES));
    this.keys = next;
  }
}

/** One committed change of a member set: the keys actually added or removed, concatenated. */
export interface MemberChange {
  set: string;
  op: 'add' | 'remove';
  keys: Buffer;
}

/** The persisted form of a change (journal line) or of a whole set (snapshot): base64 keys. */
export interface StoredMemberChange {
  set: string;
  op: 'add' | 'remove';
  keys: string;
}

/** Every member set of the store, by name (`ca:<id>`, `dnrl:<id>`). */
export class MemberSets {
  private readonly sets = new Map<string, KeySet32>();
  private pending: MemberChange[] = [];

  /** Bytes the arrays of `set` hold (0 for a set never written), for reports. */
  bytes(set: string): number {
    return this.sets.get(set)?.bytes ?? 0;
  }

  /** Members of `set` (0 for a set never written). */
  size(set: string): number {
    return this.sets.get(set)?.size ?? 0;
  }

  private get(set: string): KeySet32 {
    let s = this.sets.get(set);
    if (s === undefined) {
      s = new KeySet32();
      this.sets.set(set, s);
    }
    return s;
  }

  /** Adds the concatenated `keys`; returns how many were new. */
  add(set: string, keys: Uint8Array): number {
    return this.change(set, 'add', keys);
  }

  /** Removes the concatenated `keys`; returns how many were members. */
  remove(set: string, keys: Uint8Array): number {
    return this.change(set, 'remove', keys);
  }

  private change(set: string, op: 'add' | 'remove', keys: Uint8Array): number {
    const target = this.get(set);
    const done = Buffer.allocUnsafe(keys.length);
    let n = 0;
    for (let off = 0; off + KEY_BYTES <= keys.length; off += KEY_BYTES) {
      const changed = op === 'add' ? target.add(keys, off) : target.delete(keys, off);
      if (changed) done.set(keys.subarray(off, off + KEY_BYTES), n++ * KEY_BYTES);
    }
    if (n > 0) this.pending.push({ set, op, keys: done.subarray(0, n * KEY_BYTES) });
    return n;
  }

  /** A position in the pending changes, for a savepoint. */
  mark(): number {
    return this.pending.length;
  }

  /** Undoes the pending changes after `mark` (all of them by default), newest first. */
  rollback(mark = 0): void {
    const undo = this.pending.splice(mark);
    for (let i = undo.length - 1; i >= 0; i--) {
      const c = undo[i]!;
      const target = this.get(c.set);
      for (let off = 0; off < c.keys.length; off += KEY_BYTES) {
        if (c.op === 'add') target.delete(c.keys, off);
        else target.add(c.keys, off);
      }
    }
  }

  /** Ends a transaction: its changes, now final. */
  commit(): MemberChange[] {
    const done = this.pending;
    this.pending = [];
    return done;
  }

  /** Applies persisted changes (journal replay or snapshot load), outside any transaction. */
  restore(changes: readonly StoredMemberChange[]): void {
    for (const c of changes) {
      const keys = Buffer.from(c.keys, 'base64');
      const target = this.get(c.set);
      for (let off = 0; off + KEY_BYTES <= keys.length; off += KEY_BYTES) {
        if (c.op === 'add') target.add(keys, off);
        else target.delete(keys, off);
      }
    }
  }

  /** Every non-empty set as one `add` change, for a snapshot. */
  snapshot(): StoredMemberChange[] {
    const out: StoredMemberChange[] = [];
    for (const [set, keys] of this.sets) if (keys.size > 0) out.push({ set, op: 'add', keys: keys.toBuffer().toString('base64') });
    return out;
  }
}

/** The persisted form of committed changes. */
export const storedChanges = (changes: readonly MemberChange[]): StoredMemberChange[] =>
  changes.map((c) => ({ set: c.set, op: c.op, keys: c.keys.toString('base64') }));
