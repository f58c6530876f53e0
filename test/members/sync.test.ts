/**
 * Apply's membership sync against a recording API: only the difference from the members last
 * uploaded is sent, a request whose counts disagree is sent again with the same body, the store
 * is written only once every request succeeded (so a failure half-way sends the same difference
 * next time), and removing the membership takes every recorded member out. Without the members
 * last uploaded (the store missing, damaged, another membership's) nothing is sent, unless the
 * plan found the file to be what was last uploaded: then only the store is written again.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdsApi } from '../../src/api/ads-api.js';
import { ApiError } from '../../src/api/errors.js';
import type { WriteContext } from '../../src/kinds/descriptor.js';
import { syncMembers } from '../../src/members/sync.js';
import { readMemberFile } from '../../src/members/sets/member-file.js';
import { memberSetHash } from '../../src/members/sets/member-set.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-sync-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ADDRESS = 'custom_audiences.fans.users';

function context(): WriteContext {
  return {
    filePath: (p) => join(dir, p),
    readFile: (p) => readFile(join(dir, p)),
    sidecarPath: (address, id) => ({ path: join(dir, 'state', 'acct.members', 'fans.bin'), legacyPath: join(dir, 'state', 'acct.members', 'fans-by-address.bin'), owner: { address, id } }),
    progress: () => undefined,
  };
}

interface Sent {
  body: string;
  expected: number;
}

/** An API whose users endpoint records what it gets and answers from `answers` (true: taken; false: counts disagree; an error: thrown). */
function recordingApi(answers: Array<boolean | Error>): { api: AdsApi; sent: Sent[] } {
  const sent: Sent[] = [];
  const api = {
    sendAudienceUsers: async (_account: string, _audience: string, body: string, expected: number) => {
      sent.push({ body, expected });
      const answer = answers.shift() ?? true;
      if (answer instanceof Error) throw answer;
      if (!answer) throw new ApiError({ status: 200, items: [{ code: 'USERS_NOT_ALL_TAKEN', message: 'counts disagree' }], retryable: true, outcome: 'rejected', request: 'users' });
      return { success_count: expected, total_count: expected };
    },
  } as unknown as AdsApi;
  return { api, sent };
}

const item = (file: string | undefined) => ({ address: ADDRESS, id: 'aud1', params: { custom_audience_id: 'aud1', ...(file === undefined ? {} : { file }) } });
/** The membership's first sync, made with its audience: nothing was uploaded before. */
const created = (file: string) => ({ address: ADDRESS, params: { custom_audience_id: 'aud1', file } });
const STORE = (): string => join(dir, 'state', 'acct.members', 'fans.bin');

const emails = (n: number, from = 0): string => ['email', ...Array.from({ length: n }, (_, i) => `person${i + from}@example.com`)].join('\n') + '\n';

const operationsOf = (sent: Sent[]): string[] => sent.flatMap((s) => (JSON.parse(s.body) as Array<{ operation_type: string; params: { users: unknown[] } }>).map((o) => `${o.operation_type} ${o.params.users.length}`));

describe('syncMembers', () => {
  it('sends every member first, then only the difference, and keeps the store at mode 0600', async () => {
    writeFileSync(join(dir, 'list.csv'), emails(100));
    const first = recordingApi([]);
    expect(await syncMembers('audience', first.api, 'acct', created('list.csv'), context(), 'custom_audience_id')).toBe('aud1');
    expect(operationsOf(first.sent)).toEqual(['Update 100']);
    const store = join(dir, 'state', 'acct.members', 'fans.bin');
    expect(statSync(store).mode & 0o777).toBe(0o600);

    writeFileSync(join(dir, 'list.csv'), emails(100, 3));
    const second = recordingApi([]);
    await syncMembers('audience', second.api, 'acct', item('list.csv'), context(), 'custom_audience_id');
    expect(operationsOf(second.sent)).toEqual(['Delete 3', 'Update 3']);
    expect(second.sent.some((s) => s.body.includes('@'))).toBe(false);
  });

  it('sends every member again, with the new window, when the plan says the window moved', async () => {
    writeFileSync(join(dir, 'list.csv'), emails(20));
    await syncMembers('audience', recordingApi([]).api, 'acct', created('list.csv'), context(), 'custom_audience_id');
    const { api, sent } = recordingApi([]);
    const moved = { ...item('list.csv'), params: { ...item('list.csv').params, expires_at: '2027-06-01T00:00:00Z', members: { resend: true } } };
    await syncMembers('audience', api, 'acct', moved, context(), 'custom_audience_id');
    expect(operationsOf(sent)).toEqual(['Update 20']);
    expect((JSON.parse(sent[0]!.body) as Array<{ params: { expires_at?: string } }>)[0]?.params.expires_at).toBe('2027-06-01T00:00:00Z');
  });

  it('sends a request again, with the same body, while the service counts disagree', async () => {
    writeFileSync(join(dir, 'list.csv'), emails(10));
    const { api, sent } = recordingApi([false, false, true]);
    await syncMembers('audience', api, 'acct', created('list.csv'), context(), 'custom_audience_id');
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.body)).size).toBe(1);
  });

  it('records nothing when a request fails, so the next run sends the same difference', async () => {
    writeFileSync(join(dir, 'list.csv'), emails(10));
    const failing = recordingApi([new ApiError({ status: 400, items: [{ code: 'INVALID', message: 'no' }], retryable: false, outcome: 'rejected', request: 'users' })]);
    await expect(syncMembers('audience', failing.api, 'acct', created('list.csv'), context(), 'custom_audience_id')).rejects.toThrow(ApiError);
    expect(readdirSync(dir)).not.toContain('state');
    const again = recordingApi([]);
    await syncMembers('audience', again.api, 'acct', created('list.csv'), context(), 'custom_audience_id');
    expect(operationsOf(again.sent)).toEqual(['Update 10']);
  });

  it('refuses a file that changed since the plan, before sending anything', async () => {
    writeFileSync(join(dir, 'list.csv'), emails(10));
    const { api, sent } = recordingApi([]);
    const planned = { ...created('list.csv'), params: { ...created('list.csv').params, members: { hash: 'f'.repeat(64), count: 10 } } };
    await expect(syncMembers('audience', api, 'acct', planned, context(), 'custom_audience_id')).rejects.toThrow(/changed since the plan/);
    expect(sent).toEqual([]);
  });

  it('refuses a create or update without a member file rather than empty the audience', async () => {
    writeFileSync(join(dir, 'list.csv'), emails(7));
    await syncMembers('audience', recordingApi([]).api, 'acct', created('list.csv'), context(), 'custom_audience_id');
    const { api, sent } = recordingApi([]);
    await expect(syncMembers('audience', api, 'acct', item(undefined), context(), 'custom_audience_id')).rejects.toThrow(/no member file/);
    expect(sent).toEqual([]);
  });

  it('takes every recorded member out when the membership is removed', async () => {
    writeFileSync(join(dir, 'list.csv'), emails(7));
    await syncMembers('audience', recordingApi([]).api, 'acct', created('list.csv'), context(), 'custom_audience_id');
    const removal = recordingApi([]);
    await syncMembers('audience', removal.api, 'acct', item(undefined), context(), 'custom_audience_id', true);
    expect(operationsOf(removal.sent)).toEqual(['Delete 7']);
    expect(readdirSync(join(dir, 'state', 'acct.members'))).toEqual([]);
  });

  const unknown: Array<[string, () => void]> = [
    ['the store is missing', () => rmSync(STORE())],
    ['the store is damaged', () => writeFileSync(STORE(), readFileSync(STORE()).subarray(0, 60))],
    ['the store belongs to another audience', () => {
      const other = { ...context(), sidecarPath: (address: string) => ({ path: STORE(), legacyPath: STORE(), owner: { address: address.replace('fans', 'other'), id: 'aud2' } }) };
      return other;
    }],
  ];
  it.each(unknown)('sends nothing, for an update or a removal, when %s', async (_name, spoil) => {
    writeFileSync(join(dir, 'list.csv'), emails(10));
    await syncMembers('audience', recordingApi([]).api, 'acct', created('list.csv'), context(), 'custom_audience_id');
    const other = spoil();
    if (other !== undefined) {
      // the store written for another audience, found in this one's place
      rmSync(STORE());
      writeFileSync(join(dir, 'other.csv'), emails(10, 50));
      await syncMembers('audience', recordingApi([]).api, 'acct', { address: 'custom_audiences.other.users', params: { custom_audience_id: 'aud2', file: 'other.csv' } }, other, 'custom_audience_id');
    }
    writeFileSync(join(dir, 'list.csv'), emails(8));
    const { api, sent } = recordingApi([]);
    const update = { ...item('list.csv'), params: { ...item('list.csv').params, members: { count: 8, added: 0, removed: 2 } } };
    await expect(syncMembers('audience', api, 'acct', update, context(), 'custom_audience_id')).rejects.toThrow(/nothing was sent: the members last uploaded are not known/);
    await expect(syncMembers('audience', api, 'acct', item(undefined), context(), 'custom_audience_id', true)).rejects.toThrow(/nothing was sent: the members last uploaded are not known/);
    expect(sent).toEqual([]);
  });

  it('writes the store again, sending nothing, when the plan found the file to be what was last uploaded', async () => {
    writeFileSync(join(dir, 'list.csv'), emails(10));
    await syncMembers('audience', recordingApi([]).api, 'acct', created('list.csv'), context(), 'custom_audience_id');
    const kept = readFileSync(STORE());
    rmSync(STORE());
    const { api, sent } = recordingApi([]);
    const restore = { ...item('list.csv'), params: { ...item('list.csv').params, members: { hash: memberSetHash((await readMemberFile(join(dir, 'list.csv'))).value!.members), count: 10, added: 0, removed: 0, restore: true } } };
    await syncMembers('audience', api, 'acct', restore, context(), 'custom_audience_id');
    expect(sent).toEqual([]);
    expect(readFileSync(STORE()).equals(kept)).toBe(true);
  });

  it('sends nothing when the store changed since the plan counted the difference', async () => {
    writeFileSync(join(dir, 'list.csv'), emails(10));
    await syncMembers('audience', recordingApi([]).api, 'acct', created('list.csv'), context(), 'custom_audience_id');
    writeFileSync(join(dir, 'list.csv'), emails(10, 2));
    const { api, sent } = recordingApi([]);
    const stale = { ...item('list.csv'), params: { ...item('list.csv').params, members: { count: 10, added: 0, removed: 0 } } };
    await expect(syncMembers('audience', api, 'acct', stale, context(), 'custom_audience_id')).rejects.toThrow(/changed since the plan was made/);
    expect(sent).toEqual([]);
  });
});
