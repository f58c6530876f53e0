import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';

let emulator: RunningEmulator;
let client: TestClient;
beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
});
afterAll(() => emulator.close());

describe('emulator pipeline', () => {
  it('serves a signed request with the list envelope and rate limit headers', async () => {
    const r = await client.get('/12/accounts');
    expect(r.status).toBe(200);
    expect(r.body.data.map((a: { id: string }) => a.id)).toEqual([emulator.info.account_id]);
    expect(r.body.next_cursor).toBeNull();
    expect(r.body.request).toEqual({ params: {} });
    expect(r.headers['x-rate-limit-limit']).toBeDefined();
  });
  it('refuses a bad signature with UNAUTHORIZED_ACCESS', async () => {
    const r = await client.get('/12/accounts', {}, { creds: { ...client.creds, tokenSecret: 'wrong' } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ errors: [{ code: 'UNAUTHORIZED_ACCESS', message: 'This request is not properly authenticated' }], request: { params: {} } });
  });
});
