/**
 * Requests built to break the emulator's reading of them: bad percent-encoding on every surface,
 * an unreadable bearer token, JSON nested far too deep, and a body over the limit on a keep-alive
 * connection. Each must get the surface's 4xx answer, never a 500 or a reset connection.
 */
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';

let emulator: RunningEmulator;
let client: TestClient;
let account: string;

beforeAll(async () => {
  ({ emulator, client, account } = await startTestEmulator({ rateLimitScale: 0 }));
});
afterAll(() => emulator.close());

const raw = async (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
  const res = await request(`${client.info.base_url}${path}`, { method: method as 'GET', ...init });
  const text = await res.body.text();
  return { status: res.statusCode, body: JSON.parse(text) as any };
};

describe('bad percent-encoding answers 400 in each surface\'s dialect', () => {
  const adsShape = (body: any): void => {
    expect(body.errors[0]).toMatchObject({ code: 'INVALID_PARAMETER' });
    expect(body.request).toEqual({ params: {} });
  };
  const v11Shape = (body: any): void => expect(body.errors[0]).toMatchObject({ code: 44 });
  const controlShape = (body: any): void => expect(typeof body.error).toBe('string');
  const cases: Array<[string, string, () => string, { headers?: Record<string, string>; body?: string }, (body: any) => void]> = [
    ['an advertising endpoint', 'GET', () => `/ads-api/12/accounts/${account}/campaigns?count=%ZZ`, {}, adsShape],
    ['a sandbox endpoint', 'GET', () => '/ads-api-sandbox/12/accounts?count=%ZZ', {}, adsShape],
    ['a token endpoint (query)', 'POST', () => '/oauth/request_token?count=%ZZ', {}, v11Shape],
    ['a token endpoint (form body)', 'POST', () => '/oauth/access_token', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'oauth_verifier=%E0%A4%A' }, v11Shape],
    ['the upload service', 'POST', () => '/upload/1.1/media/upload.json?count=%ZZ', {}, v11Shape],
    ['a control endpoint', 'GET', () => '/_emulator/stats?count=%ZZ', {}, controlShape],
    ['an advertising form body', 'POST', () => `/ads-api/12/accounts/${account}/campaigns`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=%ZZ' }, adsShape],
  ];
  it.each(cases)('%s', async (_name, method, path, init, shape) => {
    const r = await raw(method, path(), init);
    expect(r.status).toBe(400);
    shape(r.body);
  });
});

describe('unreadable credentials and bodies', () => {
  it('a bearer token that is not valid percent-encoding is 401 UNAUTHORIZED_ACCESS', async () => {
    const r = await raw('GET', '/ads-api/12/targeting_criteria/locations', { headers: { authorization: 'Bearer %E0%A4%A' } });
    expect(r.status).toBe(401);
    expect(r.body.errors[0].code).toBe('UNAUTHORIZED_ACCESS');
  });

  it('a batch item nested 50,000 arrays deep is 400 INVALID_PARAMETER', async () => {
    const depth = 50_000;
    const body = `[{"operation_type":"Create","params":${'['.repeat(depth)}${']'.repeat(depth)}}]`;
    const r = await raw('POST', `/ads-api/12/batch/accounts/${account}/campaigns`, { headers: { 'content-type': 'application/json' }, body });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ code: 'INVALID_PARAMETER', parameter: 'body' });
  });

  it('ordinary nesting still parses (the request goes on to authentication)', async () => {
    const body = JSON.stringify([{ operation_type: 'Create', params: { a: [[[[{ b: [1] }]]]] } }]);
    const r = await raw('POST', `/ads-api/12/batch/accounts/${account}/campaigns`, { headers: { 'content-type': 'application/json' }, body });
    expect(r.status).toBe(401);
  });
});

describe('a body over the limit on a keep-alive connection', () => {
  const send = (agent: Agent, method: string, path: string, body?: Buffer): Promise<{ status: number; reused: boolean; text: string }> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${client.info.base_url}${path}`, { method, agent, headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(body.length) } });
      req.on('response', (res: IncomingMessage) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, text }));
      });
      req.on('error', reject);
      req.setTimeout(5_000, () => req.destroy(new Error(`no answer to ${method} ${path} within 5 s`)));
      req.end(body);
    });

  it('answers 413 and the next request on the same socket is served', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = Buffer.alloc(16_000_000, 0x20);
      const first = await send(agent, 'POST', `/ads-api/12/batch/accounts/${account}/campaigns`, big);
      expect(first.status).toBe(413);
      expect(JSON.parse(first.text).errors[0].code).toBe('INVALID_PARAMETER');
      const second = await send(agent, 'GET', '/ads-api/12/accounts');
      expect(second.status).toBe(401);
      expect(second.reused).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});
