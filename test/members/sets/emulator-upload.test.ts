/**
 * The built requests against the real emulator: a member file is read, sent to a custom
 * audience's users endpoint through the API client (the body exactly as built, `jsonText`),
 * every answer verified, and the emulator's member count compared; then a changed file is diffed
 * against the member store and only the delta is sent. The do-not-reach list answers its counts
 * in an array.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { audienceUsersTarget, doNotReachUsersTarget, type UsersTarget } from '../../../src/api/audience-users.js';
import { readMemberFile } from '../../../src/members/sets/member-file.js';
import { diffMembers } from '../../../src/members/sets/member-diff.js';
import { memberCount, type MemberSet } from '../../../src/members/sets/member-set.js';
import { readMemberStore, writeMemberStore } from '../../../src/members/sets/member-store.js';
import { userRequests, type UsersOperation } from '../../../src/members/sets/user-requests.js';
import { verifyUsersResponse } from '../../../src/api/audience-users.js';
import type { RunningEmulator } from '../../../src/emulator/emulator.js';
import { apiFor } from '../../support/api.js';
import { createAudience, memberCounts } from '../../support/audiences.js';
import { startTestEmulator, type TestClient } from '../../support/client.js';
import { scratch } from './files.js';

const { dir, file } = scratch();
let emulator: RunningEmulator;
let client: TestClient;
let api: ApiClient;
let account: string;

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
  api = apiFor(emulator.info).client;
});
afterAll(async () => {
  await api.close();
  await emulator.close();
});

/** Sends `members` with `operation` in bodies of at most `maxBytes`; each answer verified. Answers the requests sent. */
async function send(target: UsersTarget, operation: UsersOperation, members: MemberSet, maxBytes: number): Promise<number> {
  let sent = 0;
  for (const request of userRequests(operation, members, { maxBytes })) {
    const res = await api.send({ method: 'POST', path: target.path, jsonText: request.body, endpoint: target.endpoint, accountId: target.accountId, budget: target.budget, idempotent: true });
    expect(verifyUsersResponse(request, res.body)).toEqual({ ok: true, successCount: request.users, totalCount: request.users });
    sent++;
  }
  return sent;
}

function csv(emails: number[], extra: string[] = []): string {
  const lines = ['email,phone_number,handle,partner_user_id'];
  for (const i of emails) lines.push(`User${i}@Example.com,${i % 3 === 0 ? `+1 (415) 2${String(i).padStart(2, '0').slice(-2)}-${String(1000 + i).slice(-4)}` : ''},${i % 10 === 0 ? `@handle_${i}` : ''},${i % 25 === 0 && i >= 500 ? `"crm, ${i}"` : ''}`);
  return [...lines, ...extra].join('\r\n');
}

describe('users requests against the emulator', () => {
  it('uploads a member file, then only what changed, and the emulator holds exactly the set', async () => {
    const first = await readMemberFile(file('members.csv', csv(Array.from({ length: 3_000 }, (_, i) => i), ['User1@example.com,,,', 'not-an-email,,,'])));
    expect(first.value).toBeDefined();
    expect(first.counts).toMatchObject({ invalid: 1, duplicates: 1 });
    const members = first.value!.members;
    const audience = await createAudience(client, account);
    const target = audienceUsersTarget(account, audience.id);

    expect(await send(target, 'Update', members, 60_000)).toBeGreaterThan(3);
    expect(await memberCounts(client, audience.id)).toEqual({ members: memberCount(members), unmatched: 0 });
    const store = join(dir, 'audience.members');
    expect((await writeMemberStore(store, members, { address: 'custom_audiences.a.users', id: audience.id })).diagnostics).toEqual([]);

    // 500 members leave (none with a partner id: the store keeps those as digests, and the service takes their removal only as written), 300 join
    const next = await readMemberFile(file('members-2.csv', csv(Array.from({ length: 2_800 }, (_, i) => i + 500))));
    const previous = await readMemberStore(store);
    const delta = diffMembers(previous.value!.members, next.value!.members);
    expect(delta.counts.added).toBeGreaterThan(300);
    expect(delta.counts.removed).toBeGreaterThan(500);
    await send(target, 'Update', delta.added, 60_000);
    await send(target, 'Delete', delta.removed, 60_000);
    expect(await memberCounts(client, audience.id)).toEqual({ members: memberCount(next.value!.members), unmatched: 0 });

    // an unchanged file sends nothing
    const same = diffMembers(next.value!.members, (await readMemberFile(file('members-3.csv', csv(Array.from({ length: 2_800 }, (_, i) => 3_299 - i))))).value!.members);
    expect(memberCount(same.added) + memberCount(same.removed)).toBe(0);
  });

  it('verifies the do-not-reach list answer, whose data is an array', async () => {
    const list = await client.post(`/12/accounts/${account}/do_not_reach_lists`, { description: 'opted out' });
    expect(list.status).toBe(201);
    const r = await readMemberFile(file('dnrl.csv', ['email,phone_number', ...Array.from({ length: 400 }, (_, i) => `optout${i}@example.com,+44 7400 ${String(100_000 + i)}`)].join('\n')));
    expect(await send(doNotReachUsersTarget(account, list.body.data.id), 'Update', r.value!.members, 20_000)).toBeGreaterThan(1);
    expect(await memberCounts(client, list.body.data.id)).toEqual({ members: 800, unmatched: 0 });
  });
});
