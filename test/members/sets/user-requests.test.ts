import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HASHED_TYPES } from '../../../src/members/sets/identifier.js';
import { digestHexes, memberSetOf } from '../../../src/members/sets/member-builder.js';
import { emptyMemberSet, memberCount, type MemberSet } from '../../../src/members/sets/member-set.js';
import { MAX_USERS_BODY_BYTES, MAX_USERS_OPERATIONS, minimumUserRequests, userRequests, type UsersRequest } from '../../../src/members/sets/user-requests.js';
import { verifyUsersResponse } from '../../../src/api/audience-users.js';
import { checkProperty } from './property.js';

/** Every user entry of the bodies, as `type:value` strings, with checks on each body's shape. */
function entriesOf(requests: UsersRequest[], operation: string, params: Record<string, string> = {}): string[] {
  const out: string[] = [];
  for (const r of requests) {
    expect(Buffer.byteLength(r.body)).toBe(r.bytes);
    const parsed = JSON.parse(r.body) as Array<{ operation_type: string; params: { users: Array<Record<string, string[]>> } & Record<string, unknown> }>;
    expect(JSON.stringify(parsed)).toBe(r.body);
    expect(parsed).toHaveLength(r.operations);
    let users = 0;
    for (const op of parsed) {
      expect(op.operation_type).toBe(operation);
      const { users: list, ...rest } = op.params;
      expect(rest).toEqual(params);
      users += list.length;
      for (const user of list) {
        const keys = Object.keys(user);
        expect(keys).toHaveLength(1);
        expect(user[keys[0]!]).toHaveLength(1);
        out.push(`${keys[0]}:${user[keys[0]!]![0]}`);
      }
    }
    expect(users).toBe(r.users);
    expect(r.identifiers).toBe(r.users);
  }
  return out;
}

function expectedEntries(set: MemberSet): string[] {
  const out: string[] = [];
  for (const t of HASHED_TYPES) for (const h of digestHexes(set, t)) out.push(`${t}:${h}`);
  for (const id of set.partnerIds) out.push(`partner_user_id:${id}`);
  return out;
}

const mixed = (n: number): MemberSet =>
  memberSetOf({
    email: Array.from({ length: n }, (_, i) => `user${i}@example.com`),
    phone_number: Array.from({ length: Math.floor(n / 2) }, (_, i) => `+1415${String(2_000_000 + i)}`),
    partner_user_id: Array.from({ length: Math.floor(n / 4) }, (_, i) => `crm-${i}-ünï "q"`),
  });

describe('userRequests', () => {
  it('sends every member once, in bodies the service reads as sent', () => {
    const set = mixed(400);
    const requests = [...userRequests('Update', set, { effectiveAt: '2026-01-01T00:00:00Z', expiresAt: '2027-01-01T00:00:00Z', maxBytes: 5_000 })];
    expect(requests.length).toBeGreaterThan(1);
    expect(entriesOf(requests, 'Update', { effective_at: '2026-01-01T00:00:00Z', expires_at: '2027-01-01T00:00:00Z' })).toEqual(expectedEntries(set));
    for (const r of requests) expect(r.bytes).toBeLessThanOrEqual(5_000);
  });

  it('keeps every body within the byte and operation limits, in few requests, for any limit', () => {
    checkProperty(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 400, max: 20_000 }), (n, maxBytes) => {
        const set = mixed(n);
        const requests = [...userRequests('Delete', set, { maxBytes })];
        for (const r of requests) {
          expect(r.bytes).toBeLessThanOrEqual(maxBytes);
          expect(r.operations).toBeLessThanOrEqual(MAX_USERS_OPERATIONS);
        }
        expect(entriesOf(requests, 'Delete')).toEqual(expectedEntries(set));
        // each body but the last is full to within one entry and its envelope
        for (const r of requests.slice(0, -1)) expect(r.bytes).toBeGreaterThan(maxBytes - 160);
      }),
      { numRuns: 60 },
    );
  });

  it('packs 100,000 identifiers within 1.1 times the fewest requests, under the service limits', () => {
    const set = memberSetOf({
      email: Array.from({ length: 60_000 }, (_, i) => `user${i}@example.com`),
      phone_number: Array.from({ length: 30_000 }, (_, i) => `+1415${String(2_000_000 + i)}`),
      partner_user_id: Array.from({ length: 10_000 }, (_, i) => `crm-${i}`),
    });
    const requests = [...userRequests('Update', set)];
    const payload = expectedEntries(set).reduce((n, e) => {
      const [type, value] = [e.slice(0, e.indexOf(':')), e.slice(e.indexOf(':') + 1)];
      return n + Buffer.byteLength(JSON.stringify({ [type]: [value] })) + 1;
    }, -1);
    const minimum = Math.ceil(payload / MAX_USERS_BODY_BYTES);
    expect(minimumUserRequests(set)).toBe(minimum);
    expect(requests.length).toBeLessThanOrEqual(Math.floor(1.1 * minimum));
    for (const r of requests) {
      expect(r.bytes).toBeLessThanOrEqual(MAX_USERS_BODY_BYTES);
      expect(r.operations).toBeLessThanOrEqual(MAX_USERS_OPERATIONS);
    }
    expect(requests.reduce((n, r) => n + r.users, 0)).toBe(memberCount(set));
  });

  it('makes no request for an empty set', () => {
    expect([...userRequests('Update', emptyMemberSet())]).toEqual([]);
  });

  it('refuses an entry larger than any body (a bug in the caller)', () => {
    const set = memberSetOf({ partner_user_id: ['x'.repeat(200)] });
    expect(() => [...userRequests('Update', set, { maxBytes: 100 })]).toThrow(RangeError);
  });
});

describe('verifyUsersResponse', () => {
  const sent = { users: 4 };
  const table: Array<[string, unknown, boolean]> = [
    ['custom audience counts equal to the entries sent', { request: {}, data: { success_count: 4, total_count: 4 } }, true],
    ['do-not-reach list counts in an array', { request: [], data: [{ success_count: 4, total_count: 4 }] }, true],
    ['counts split over array elements', { data: [{ success_count: 1, total_count: 1 }, { success_count: 3, total_count: 3 }] }, true],
    ['fewer successes', { data: { success_count: 3, total_count: 4 } }, false],
    ['another total', { data: { success_count: 4, total_count: 5 } }, false],
    ['both counts lower', { data: { success_count: 3, total_count: 3 } }, false],
    ['fewer successes in an array', { data: [{ success_count: 3, total_count: 4 }] }, false],
    ['an empty array', { data: [] }, false],
    ['no data', { request: {} }, false],
    ['counts as strings', { data: { success_count: '4', total_count: '4' } }, false],
    ['no body', undefined, false],
  ];
  it.each(table)('%s', (_, response, ok) => {
    const check = verifyUsersResponse(sent, response);
    expect(check.ok).toBe(ok);
    if (!check.ok) expect(check.problem).toMatch(/success_count|counts/);
  });
});
