import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HASHED_TYPES, type IdentifierType } from '../../../src/members/sets/identifier.js';
import { digestHexes, memberSetOf } from '../../../src/members/sets/member-builder.js';
import { diffMembers } from '../../../src/members/sets/member-diff.js';
import { memberCount, memberSetHash, type MemberSet } from '../../../src/members/sets/member-set.js';
import { checkProperty } from './property.js';

/** Values of every type from a small pool, so two sets share many. */
const values = fc.record({
  email: fc.array(fc.integer({ min: 0, max: 60 }).map((i) => `user${i}@example.com`), { maxLength: 80 }),
  phone_number: fc.array(fc.integer({ min: 0, max: 40 }).map((i) => `+1415555${String(1000 + i)}`), { maxLength: 50 }),
  handle: fc.array(fc.integer({ min: 0, max: 20 }).map((i) => `h${i}`), { maxLength: 20 }),
  device_id: fc.array(fc.integer({ min: 0, max: 10 }).map((i) => `d${i}`), { maxLength: 10 }),
  service_id: fc.array(fc.integer({ min: 0, max: 10 }).map(String), { maxLength: 10 }),
  partner_user_id: fc.array(fc.string({ maxLength: 4 }).filter((s) => s !== ''), { maxLength: 30 }),
});

/** Each type's members as strings: digest hex, or the partner id. */
function members(set: MemberSet): Record<IdentifierType, string[]> {
  const out = {} as Record<IdentifierType, string[]>;
  for (const t of HASHED_TYPES) out[t] = digestHexes(set, t);
  out.partner_user_id = [...set.partnerIds];
  return out;
}

describe('diffMembers', () => {
  it('finds what a naive Set difference finds, per type, in order', () => {
    checkProperty(
      fc.property(values, values, (a, b) => {
        const previous = memberSetOf(a);
        const next = memberSetOf(b);
        const diff = diffMembers(previous, next);
        const p = members(previous);
        const n = members(next);
        const added = members(diff.added);
        const removed = members(diff.removed);
        for (const t of Object.keys(p) as IdentifierType[]) {
          const before = new Set(p[t]);
          const after = new Set(n[t]);
          expect(added[t]).toEqual(n[t].filter((m) => !before.has(m)));
          expect(removed[t]).toEqual(p[t].filter((m) => !after.has(m)));
          expect(diff.byType[t]).toEqual({ added: added[t].length, removed: removed[t].length });
        }
        expect(diff.counts).toEqual({ added: memberCount(diff.added), removed: memberCount(diff.removed), unchanged: memberCount(next) - memberCount(diff.added) });
        // previous, less what was removed, plus what was added, is next
        for (const t of Object.keys(p) as IdentifierType[]) {
          const gone = new Set(removed[t]);
          expect([...p[t].filter((m) => !gone.has(m)), ...added[t]].sort()).toEqual([...n[t]].sort());
        }
      }),
    );
  });

  it('diffs partner ids by digest: added ones keep their values, dropped ones of a stored set have none', () => {
    const file = memberSetOf({ partner_user_id: ['a', 'b', 'c'] });
    const stored: MemberSet = { ...memberSetOf({ partner_user_id: ['b', 'c', 'd'] }), partnerIds: [] };
    const diff = diffMembers(stored, file);
    expect(diff.added.partnerIds).toEqual(['a']);
    expect(memberCount(diff.removed, 'partner_user_id')).toBe(1);
    expect(diff.removed.partnerIds).toEqual([]);
    expect(diff.byType.partner_user_id).toEqual({ added: 1, removed: 1 });
  });

  it('gives empty deltas for an unchanged set', () => {
    const set = memberSetOf({ email: ['a@example.com', 'b@example.com'], partner_user_id: ['x'] });
    const again = memberSetOf({ partner_user_id: ['x'], email: ['b@example.com', 'a@example.com', 'a@example.com'] });
    expect(memberSetHash(again)).toBe(memberSetHash(set));
    const diff = diffMembers(set, again);
    expect(diff.counts).toEqual({ added: 0, removed: 0, unchanged: 3 });
    expect(memberCount(diff.added) + memberCount(diff.removed)).toBe(0);
  });
});
