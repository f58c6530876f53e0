/**
 * Users uploads through the real API client against the emulator: bodies serialised by the
 * caller and sent as they are, the counts the service answers checked against the users sent (a
 * mismatch is a retryable error, and the same body sent again succeeds), retries of 5xx answers,
 * the users endpoints' own rate-limit budget (on a clock the test moves), and traces that show a
 * body's size and user count but never an identifier.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { USERS_BODY_MAX_BYTES } from '../../src/api/audience-users.js';
import type { ClientOptions } from '../../src/api/client.js';
import { emulatorEndpoint } from '../../src/api/endpoints.js';
import { ApiError } from '../../src/api/errors.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/emulator.js';
import { apiFor } from '../support/api.js';
import { emails, hashes, usersOp } from '../support/audiences.js';
import { testClock } from '../support/test-clock.js';

let emulator: RunningEmulator | undefined;
let proxy: Server | undefined;
afterEach(async () => {
  if (proxy !== undefined) await new Promise<void>((resolve) => proxy!.close(() => resolve()));
  proxy = undefined;
  await emulator?.close();
  emulator = undefined;
});

async function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  emulator = await startEmulator({ clock: testClock, port: 0, log: () => {}, rateLimitScale: 0, ...options });
  return emulator;
}

async function control(emu: RunningEmulator, path: string, body?: unknown): Promise<any> {
  const res = await request(`${emu.info.base_url}/_emulator${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return res.body.json();
}

async function members(emu: RunningEmulator, id: string): Promise<number> {
  const all = await control(emu, '/audiences');
  return [...all.custom_audiences, ...all.do_not_reach_lists].find((a: { id: string }) => a.id === id).members;
}

/** A users body of `n` new email members (seeded by `seed`) and the removal of `removed` of them. */
function usersBody(n: number, seed: string, removed = 0): { body: string; users: number; values: string[] } {
  const values = hashes(n, seed);
  const ops = [usersOp('Update', emails(values))];
  if (removed > 0) ops.push(usersOp('Delete', emails(values.slice(0, removed))));
  return { body: JSON.stringify(ops), users: n + removed, values };
}

/**
 * A proxy in front of the emulator that lowers `success_count` in the first `times` answers of a
 * users endpoint, as a service that took fewer users than were sent would answer.
 */
async function shortCountingProxy(target: string, times: number): Promise<string> {
  const to = new URL(target);
  let left = times;
  proxy = createServer((req, res) => {
    const upstream = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let body = Buffer.concat(chunks);
        if (/\/users$/.test(req.url ?? '') && answer.statusCode === 200 && left > 0) {
          left--;
          const parsed = JSON.parse(body.toString('utf8'));
          const counts = Array.isArray(parsed.data) ? parsed.data[0] : parsed.data;
          counts.success_count -= 1;
          body = Buffer.from(JSON.stringify(parsed));
        }
        const { 'transfer-encoding': _chunked, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

describe('custom audience users', () => {
  it('sends the body as it is and answers the counts of the users sent', async () => {
    const emu = await start();
    const { client, api } = apiFor(emu.info);
    const audience = await api.create('custom_audience', emu.info.account_id, { name: 'Members' });
    const { body, users } = usersBody(300, 'a', 50);
    expect(await api.sendAudienceUsers(emu.info.account_id, audience.id, body, users)).toEqual({ success_count: 350, total_count: 350 });
    expect(await members(emu, audience.id)).toBe(250);
    expect(client.counts.byEndpoint['custom_audience.users']).toBe(1);
    expect((await control(emu, '/stats')).servedByRoute['POST /12/accounts/:account_id/custom_audiences/:custom_audience_id/users']).toBe(1);
    await client.close();
  });

  it('throws a retryable error when the counts differ from the users sent', async () => {
    const emu = await start();
    const { client, api } = apiFor(emu.info);
    const audience = await api.create('custom_audience', emu.info.account_id, { name: 'Members' });
    const { body, users } = usersBody(10, 'b');
    const error = await api.sendAudienceUsers(emu.info.account_id, audience.id, body, users + 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'USERS_NOT_ALL_TAKEN', retryable: true, outcome: 'rejected', status: 200 });
    expect((error as ApiError).message).toContain('success_count 10 and total_count 10 for 11 users sent');
    await client.close();
  });

  it('succeeds when the caller sends the same body again after a short count', async () => {
    const emu = await start();
    const url = await shortCountingProxy(emu.info.base_url, 1);
    const { client, api } = apiFor(emu.info, { endpoint: emulatorEndpoint('proxy', url) });
    const audience = await api.create('custom_audience', emu.info.account_id, { name: 'Members' });
    const { body, users } = usersBody(40, 'c');
    const first = await api.sendAudienceUsers(emu.info.account_id, audience.id, body, users).catch((e: unknown) => e);
    expect(first).toMatchObject({ code: 'USERS_NOT_ALL_TAKEN', retryable: true });
    expect(await api.sendAudienceUsers(emu.info.account_id, audience.id, body, users)).toEqual({ success_count: 40, total_count: 40 });
    expect(await members(emu, audience.id)).toBe(40);
    expect(client.counts.byEndpoint['custom_audience.users']).toBe(2);
    await client.close();
  });

  it('retries a users request the service answered with a 500', async () => {
    const emu = await start();
    const { client, api } = apiFor(emu.info, { sleep: async () => {} });
    const audience = await api.create('custom_audience', emu.info.account_id, { name: 'Members' });
    await control(emu, '/faults', { faults: '500=100%', count: 2 });
    const { body, users } = usersBody(25, 'd');
    expect(await api.sendAudienceUsers(emu.info.account_id, audience.id, body, users)).toEqual({ success_count: 25, total_count: 25 });
    expect(client.counts.retries).toBe(2);
    expect(client.counts.byEndpoint['custom_audience.users']).toBe(1);
    expect(await members(emu, audience.id)).toBe(25);
    await client.close();
  });

  it('refuses a body over 5,000,000 bytes before sending it', async () => {
    const emu = await start();
    const { client, api } = apiFor(emu.info);
    const error = await api.sendAudienceUsers(emu.info.account_id, 'x', 'x'.repeat(USERS_BODY_MAX_BYTES + 1), 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(client.counts.attempts).toBe(0);
    await client.close();
  });
});

describe('do-not-reach list users', () => {
  it('reads the counts of the array the endpoint answers', async () => {
    const emu = await start();
    const { client, api } = apiFor(emu.info);
    const list = await api.create('do_not_reach_list', emu.info.account_id, {});
    const { body, users } = usersBody(120, 'e', 20);
    expect(await api.sendDoNotReachUsers(emu.info.account_id, list.id, body, users)).toEqual({ success_count: 140, total_count: 140 });
    expect(await members(emu, list.id)).toBe(100);
    const short = await api.sendDoNotReachUsers(emu.info.account_id, list.id, body, users - 1).catch((e: unknown) => e);
    expect(short).toMatchObject({ code: 'USERS_NOT_ALL_TAKEN', retryable: true });
    await client.close();
  });

  it('counts a short answer of the proxy as a failure too', async () => {
    const emu = await start();
    const url = await shortCountingProxy(emu.info.base_url, 1);
    const { client, api } = apiFor(emu.info, { endpoint: emulatorEndpoint('proxy', url) });
    const list = await api.create('do_not_reach_list', emu.info.account_id, {});
    const { body, users } = usersBody(5, 'f');
    await expect(api.sendDoNotReachUsers(emu.info.account_id, list.id, body, users)).rejects.toMatchObject({ code: 'USERS_NOT_ALL_TAKEN' });
    expect(await api.sendDoNotReachUsers(emu.info.account_id, list.id, body, users)).toEqual({ success_count: 5, total_count: 5 });
    await client.close();
  });
});

describe('the users rate limit', () => {
  it('is a budget of its own: exhausting it holds users requests until its reset, not writes', async () => {
    let nowMs = Date.now();
    // 1,500 users requests and 450 writes a minute, scaled to 6 and 2
    const emu = await start({ rateLimitScale: 0.004, rateLimitWindowSeconds: 60, clock: { now: () => new Date(nowMs) } });
    const timing: Partial<ClientOptions> = { now: () => nowMs, sleep: async (ms) => void (nowMs += ms), random: () => 0 };
    const { client, api } = apiFor(emu.info, timing);
    const audience = await api.create('custom_audience', emu.info.account_id, { name: 'Limited' });
    for (let i = 0; i < 6; i++) {
      const { body, users } = usersBody(3, `g${i}`);
      await api.sendAudienceUsers(emu.info.account_id, audience.id, body, users);
    }
    expect(client.counts.waitedMs).toBe(0);
    await api.update('custom_audience', emu.info.account_id, audience.id, { description: 'the second write of the minute' });
    expect(client.counts.waitedMs).toBe(0);
    const { body, users } = usersBody(3, 'g6');
    const started = nowMs;
    expect(await api.sendAudienceUsers(emu.info.account_id, audience.id, body, users)).toEqual({ success_count: 3, total_count: 3 });
    expect(client.counts.waitedMs).toBeGreaterThan(0);
    expect(nowMs - started).toBeLessThanOrEqual(61_000);
    expect(client.counts.rateLimited).toBe(0);
    expect(await members(emu, audience.id)).toBe(21);
    await client.close();
  });
});

describe('traces of users requests', () => {
  it('show the size and user count of a body, never its identifiers', async () => {
    const emu = await start();
    const lines: string[] = [];
    const { client, api } = apiFor(emu.info, { trace: (line) => lines.push(line) });
    const audience = await api.create('custom_audience', emu.info.account_id, { name: 'Private' });
    const list = await api.create('do_not_reach_list', emu.info.account_id, {});
    const a = usersBody(50, 'private-a', 5);
    const b = usersBody(30, 'private-b');
    await api.sendAudienceUsers(emu.info.account_id, audience.id, a.body, a.users);
    await api.sendDoNotReachUsers(emu.info.account_id, list.id, b.body, b.users);
    const mismatch = await api.sendAudienceUsers(emu.info.account_id, audience.id, a.body, a.users + 1).catch((e: unknown) => e);
    const usersLines = lines.filter((l) => /\/users /.test(l));
    expect(usersLines).toHaveLength(3);
    expect(usersLines[0]).toContain(`[body ${Buffer.byteLength(a.body)} bytes: 55 users]`);
    expect(usersLines[1]).toContain(`[body ${Buffer.byteLength(b.body)} bytes: 30 users]`);
    const everything = `${lines.join('\n')}\n${String(mismatch)}\n${(mismatch as ApiError).describe()}`;
    for (const value of [...a.values, ...b.values]) expect(everything).not.toContain(value);
    expect(everything).not.toContain('"email"');
    expect(everything).not.toContain('operation_type');
    await client.close();
  });
});
