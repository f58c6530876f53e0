import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memberSetOf } from '../../../src/members/sets/member-builder.js';
import { HASHED_TYPES } from '../../../src/members/sets/identifier.js';
import { contentHasher, emptyMemberSet, memberSetHash } from '../../../src/members/sets/member-set.js';
import { readMemberStore, writeMemberStore } from '../../../src/members/sets/member-store.js';
import { scratch } from './files.js';

const { dir } = scratch();

const SET = memberSetOf({
  email: Array.from({ length: 500 }, (_, i) => `user${i}@example.com`),
  phone_number: ['+14155552671', '+442079460958'],
  handle: ['alice'],
  device_id: ['aebe52e7-03ee-455a-b3c4-e57283966239'],
  service_id: ['783214'],
  partner_user_id: ['crm-1', 'Ünïcode, "quoted"', 'two\nlines'],
});

const OWNER = { address: 'custom_audiences.fans.users', id: '1nmth' };
/** Bytes before the counts: magic, version, the owner's length, the owner, its checksum. */
const HEAD = 8 + 4 + 4 + Buffer.byteLength(JSON.stringify(OWNER)) + 32;

async function stored(name: string): Promise<string> {
  const path = join(dir, name);
  const w = await writeMemberStore(path, SET, OWNER);
  expect(w.diagnostics).toEqual([]);
  return path;
}

describe('member store', () => {
  it('reads back the set it wrote, with its content hash', async () => {
    const path = await stored('round-trip.members');
    const w = await writeMemberStore(path, SET, OWNER);
    expect(w.value).toBe(memberSetHash(SET));
    const r = await readMemberStore(path);
    expect(r.diagnostics).toEqual([]);
    expect(r.value!.hash).toBe(memberSetHash(SET));
    expect(r.value!.owner).toEqual(OWNER);
    expect(memberSetHash(r.value!.members)).toBe(memberSetHash(SET));
    expect(r.value!.members.partnerDigests.equals(SET.partnerDigests)).toBe(true);
    // partner ids are kept as digests alone: their values are not known after the read
    expect(r.value!.members.partnerIds).toEqual([]);
    expect(r.value!.members.digests.email.equals(SET.digests.email)).toBe(true);
  });

  it('holds digests only: no value of any type, partner ids included, appears in the file', async () => {
    const bytes = readFileSync(await stored('digests-only.members'));
    expect(bytes.length).toBe(HEAD + 24 + 508 * 32 + 32);
    for (const value of ['user1@example.com', '+14155552671', 'alice', '783214', 'crm-1', 'quoted', 'lines']) expect(bytes.includes(value)).toBe(false);
  });

  it('writes an empty set', async () => {
    const path = join(dir, 'empty.members');
    await writeMemberStore(path, emptyMemberSet(), OWNER);
    expect((await readMemberStore(path)).value!.hash).toBe(memberSetHash(emptyMemberSet()));
  });

  it('writes mode 0600 through a temporary file, replacing an earlier file', async () => {
    const path = join(dir, 'mode.members');
    writeFileSync(path, 'earlier', { mode: 0o644 });
    await writeMemberStore(path, SET, OWNER);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('reports a directory that does not exist, and leaves nothing behind', async () => {
    const path = join(dir, 'missing-dir', 'x.members');
    const w = await writeMemberStore(path, SET, OWNER);
    expect(w.value).toBeUndefined();
    expect(w.diagnostics.map((d) => [d.code, d.message])).toEqual([['member-store-write', `cannot write the member store ${path} (ENOENT)`]]);
    expect(existsSync(join(dir, 'missing-dir'))).toBe(false);
  });

  const damage: Array<[string, (b: Buffer) => Buffer, RegExp]> = [
    ['cut short', (b) => b.subarray(0, b.length - 1), /is truncated \(the partner_user_id digests run past its end\)/],
    ['cut to its header', (b) => b.subarray(0, 10), /is truncated \(10 bytes\)/],
    ['cut inside its digests', (b) => b.subarray(0, HEAD + 24 + 100 + 32), /is truncated \(the email digests run past its end\)/],
    ['with a digest byte changed', (b) => flip(b, HEAD + 24 + 40), /does not match its checksum/],
    ['with a partner id byte changed', (b) => flip(b, b.length - 40), /does not match its checksum/],
    ['with bytes added', (b) => Buffer.concat([b.subarray(0, b.length - 32), Buffer.from('xx'), b.subarray(b.length - 32)]), /bytes more than its counts account for/],
    ['with another magic', (b) => Buffer.concat([Buffer.from('notmagic'), b.subarray(8)]), /is not a member store file/],
    ['of another version', (b) => { const c = Buffer.from(b); c.writeUInt32BE(3, 8); return c; }, /has format version 3, and this adsctl reads versions 1 and 2/],
    ['with a byte of the membership it names changed', (b) => flip(b, 8 + 4 + 4 + 20), /does not match its checksum \(in the membership it names\)/],
    ['cut inside the membership it names', (b) => b.subarray(0, 8 + 4 + 4 + 10), /is truncated \(in the membership it names\)/],
    ['empty', () => Buffer.alloc(0), /is not a member store file/],
  ];
  it.each(damage)('refuses a file %s, naming its path', async (name, change, problem) => {
    const path = await stored(`damaged-${name.replace(/ /g, '-')}.members`);
    writeFileSync(path, change(readFileSync(path)));
    const r = await readMemberStore(path);
    expect(r.value).toBeUndefined();
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]!.code).toBe('member-store-damaged');
    expect(r.diagnostics[0]!.message).toContain(`the member store ${path} `);
    expect(r.diagnostics[0]!.message).toMatch(problem);
  });

  it('refuses digests out of order even under a matching checksum', async () => {
    const path = await stored('out-of-order.members');
    const b = Buffer.from(readFileSync(path));
    const first = HEAD + 24;
    const a = Buffer.from(b.subarray(first, first + 32));
    b.copy(b, first, first + 32, first + 64);
    a.copy(b, first + 32);
    contentHasher().update(b.subarray(HEAD, b.length - 32)).digest().copy(b, b.length - 32);
    writeFileSync(path, b);
    const r = await readMemberStore(path);
    expect(r.diagnostics.map((d) => d.message)).toEqual([`the member store ${path} holds its email digests out of order`]);
  });

  it('reads a file of format version 1, which names no membership and kept partner ids as sent', async () => {
    const path = join(dir, 'version-1.members');
    const partner = [...SET.partnerIds].sort();
    const u32 = (n: number): Buffer => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
    const counts = [500, 2, 1, 1, 1, partner.length].map(u32);
    const body = Buffer.concat([...counts, ...HASHED_TYPES.map((t) => SET.digests[t]), ...partner.flatMap((id) => [u32(Buffer.byteLength(id)), Buffer.from(id)])]);
    const hash = contentHasher().update(body).digest();
    writeFileSync(path, Buffer.concat([Buffer.from('adsctlMS'), u32(1), body, hash]));
    const r = await readMemberStore(path);
    expect(r.diagnostics).toEqual([]);
    expect(r.value!.owner).toBeUndefined();
    expect(r.value!.hash).toBe(hash.toString('hex'));
    // its partner ids are read as sent, so their removal can still be sent once
    expect(memberSetHash(r.value!.members)).toBe(memberSetHash(SET));
    expect([...r.value!.members.partnerIds].sort()).toEqual(partner);
  });

  it('tells a missing store apart', async () => {
    const r = await readMemberStore(join(dir, 'never-written.members'));
    expect(r.diagnostics.map((d) => d.code)).toEqual(['member-store-missing']);
  });
});

function flip(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = copy[at]! ^ 0xff;
  return copy;
}
