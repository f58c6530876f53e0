/**
 * `lastUploaded`: the members last uploaded are known only from a store that names the
 * membership's live id (at its id's path, or at the address's path where earlier releases kept
 * it), or from a store of format 1 whose hash is the one the state records. Every other case is
 * not known, and says why; `recordUploaded` writes the store at the id's path and removes the
 * one of an earlier release; `moveUploaded` carries a store to a new address.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memberSetOf } from '../../src/members/sets/member-builder.js';
import { contentHasher, memberSetHash } from '../../src/members/sets/member-set.js';
import { lastUploaded, moveUploaded, recordUploaded } from '../../src/members/membership.js';
import { membersStoreOf, type MembersStoreLocation } from '../../src/members/store-path.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-last-uploaded-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SET = memberSetOf({ email: ['a@example.com', 'b@example.com'], phone_number: ['+14155552671'] });
const at = (address: string, id: string): MembersStoreLocation => membersStoreOf(dir, 'acct', address, id);
const FANS = (): MembersStoreLocation => at('custom_audiences.fans.users', 'aud1');

/** A store of format 1 (no owner) holding `SET` at `path`. */
function version1(path: string): string {
  const u32 = (n: number): Buffer => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
  const body = Buffer.concat([u32(2), u32(1), u32(0), u32(0), u32(0), u32(0), SET.digests.email, SET.digests.phone_number]);
  mkdirSync(join(dir, 'acct.members'), { recursive: true });
  writeFileSync(path, Buffer.concat([Buffer.from('adsctlMS'), u32(1), body, contentHasher().update(body).digest()]));
  return contentHasher().update(body).digest('hex');
}

type Case = [name: string, setup: () => Promise<string | undefined>, known: boolean, problem?: RegExp];
const cases: Case[] = [
  ['a store naming this membership', async () => (await recordUploaded(FANS(), SET), undefined), true],
  ['a store naming this id under an old address (a rename)', async () => (await recordUploaded(at('custom_audiences.old.users', 'aud1'), SET), undefined), true],
  ['no store at all', async () => undefined, false, /its member store .*id-[0-9a-f]{32}\.bin does not exist/],
  [
    'a damaged store',
    async () => {
      await recordUploaded(FANS(), SET);
      writeFileSync(FANS().path, readFileSync(FANS().path).subarray(0, 50));
      return undefined;
    },
    false,
    /is truncated/,
  ],
  [
    "another membership's store in its place",
    async () => {
      await recordUploaded(at('custom_audiences.other.users', 'aud2'), SET);
      renameSync(at('custom_audiences.other.users', 'aud2').path, FANS().path);
      return undefined;
    },
    false,
    /belongs to custom_audiences\.other\.users \(id aud2\), not to this membership \(id aud1\)/,
  ],
  ['a store of format 1 whose hash the state records', async () => version1(FANS().legacyPath), true],
  [
    'a store of format 1 whose hash the state does not record',
    async () => {
      version1(FANS().legacyPath);
      return 'f'.repeat(64);
    },
    false,
    /names no membership \(an earlier adsctl wrote it\) and does not hold the members the state records/,
  ],
];

describe('lastUploaded', () => {
  it.each(cases)('%s', async (_name, setup, known, problem) => {
    const recorded = await setup();
    const r = await lastUploaded(FANS(), recorded);
    expect(r.known).toBe(known);
    if (r.known) expect(memberSetHash(r.members)).toBe(memberSetHash(SET));
    else expect(r.problem).toMatch(problem!);
  });

  it('knows an empty set for a membership not yet bound', async () => {
    const r = await lastUploaded(undefined);
    expect(r.known && r.members.digests.email.length === 0).toBe(true);
  });
});

describe('recordUploaded and moveUploaded', () => {
  it('writes the store at the id, naming the membership, and removes the one named by address', async () => {
    const hash = version1(FANS().legacyPath);
    expect(await recordUploaded(FANS(), SET)).toEqual([]);
    expect(existsSync(FANS().legacyPath)).toBe(false);
    const r = await lastUploaded(FANS(), hash);
    expect(r.known).toBe(true);
  });

  it('carries a store of format 1 to the new address of a moved membership', async () => {
    const from = at('custom_audiences.before.users', 'aud1');
    const to = at('custom_audiences.after.users', 'aud1');
    const hash = version1(from.legacyPath);
    expect(await moveUploaded(from, to, hash)).toBeUndefined();
    expect(existsSync(from.legacyPath)).toBe(false);
    const r = await lastUploaded(to);
    expect(r.known && memberSetHash(r.members) === memberSetHash(SET)).toBe(true);
  });

  it('leaves members that are not known where they are, and says why', async () => {
    const from = at('custom_audiences.before.users', 'aud1');
    expect(await moveUploaded(from, at('custom_audiences.after.users', 'aud1'), undefined)).toMatch(/does not exist/);
  });
});
