import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DigestHasher } from '../../../src/members/sets/digest-hasher.js';
import { DigestList, sortDistinctDigests } from '../../../src/members/sets/digest-list.js';
import { checkProperty } from './property.js';

/** The naive answer: hex strings, deduplicated with a Set, sorted. */
const naive = (buf: Buffer): string[] => [...new Set(Array.from({ length: buf.length / 32 }, (_, i) => buf.toString('hex', i * 32, i * 32 + 32)))].sort();
const hexes = (buf: Buffer): string[] => Array.from({ length: buf.length / 32 }, (_, i) => buf.toString('hex', i * 32, i * 32 + 32));

describe('sortDistinctDigests', () => {
  it('sorts and deduplicates like a Set of hex strings, shared prefixes included', () => {
    // digests drawn from few first bytes and a few shared five-byte prefixes, so buckets and ties are exercised
    const digest = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.uint8Array({ minLength: 27, maxLength: 27 }), fc.boolean()).map(([first, prefix, rest, tie]) => {
      const d = Buffer.alloc(32);
      d[0] = first;
      d.writeUInt32BE(prefix * 0x01010101, 1);
      Buffer.from(rest).copy(d, 5);
      if (tie) d.fill(7, 5, 31);
      return d;
    });
    checkProperty(
      fc.property(fc.array(digest, { maxLength: 300 }), fc.nat(5), (list, repeat) => {
        const all = Buffer.concat([...list, ...list.slice(0, repeat)]);
        expect(hexes(sortDistinctDigests(all))).toEqual(naive(all));
      }),
    );
  });

  it('handles many random digests', () => {
    const all = Buffer.concat(Array.from({ length: 200_000 }, (_, i) => createHash('sha256').update(`digest ${i}`).digest()));
    const sorted = sortDistinctDigests(all);
    expect(sorted.length).toBe(all.length);
    for (let off = 32; off < sorted.length; off += 32) if (Buffer.compare(sorted.subarray(off - 32, off), sorted.subarray(off, off + 32)) >= 0) expect.fail(`out of order at ${off / 32}`);
  });
});

describe('DigestHasher', () => {
  it('hashes on a worker thread to the same digests as in place', async () => {
    const values = Array.from({ length: 200_000 }, (_, i) => `value ${i} ünïcode`);
    const threaded = new DigestHasher(true);
    const inPlace = new DigestHasher(false);
    values.forEach((v, i) => {
      threaded.add(i % 2 === 0 ? 'email' : 'handle', v);
      inPlace.add(i % 2 === 0 ? 'email' : 'handle', v);
    });
    await threaded.finish();
    await inPlace.finish();
    expect(threaded.workerValues).toBeGreaterThan(100_000);
    expect(inPlace.workerValues).toBe(0);
    for (const t of ['email', 'handle'] as const) expect(threaded.lists[t].sortedDistinct().equals(inPlace.lists[t].sortedDistinct())).toBe(true);
    const list = new DigestList();
    list.pushHashOf(values[0]!);
    expect(list.sortedDistinct().toString('hex')).toBe(createHash('sha256').update(values[0]!).digest('hex'));
  });
});
