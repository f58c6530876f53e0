import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';

let emulator: RunningEmulator;
let client: TestClient;
let deleted: string;

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  const created = await client.post('/12/accounts', {}, { base: 'sandbox' });
  expect(created.status).toBe(201);
  deleted = created.body.data[0].id;
  expect((await client.delete(`/12/accounts/${deleted}`, {}, { base: 'sandbox' })).status).toBe(200);
});
afterAll(() => emulator.close());

describe('a deleted sandbox account', () => {
  it.each([
    ['GET', '/campaigns'],
    ['GET', '/line_items'],
    ['GET', '/funding_instruments'],
    ['POST', '/campaigns'],
  ])('answers %s %s with 404 NOT_FOUND', async (method, suffix) => {
    const r = await client.send(method, `/12/accounts/${deleted}${suffix}`, method === 'POST' ? { name: 'x', funding_instrument_id: 'x' } : {});
    expect(r.status).toBe(404);
    expect(r.body.errors[0]).toMatchObject({ code: 'NOT_FOUND', parameter: 'account_id' });
  });

  it('is still visible by itself with with_deleted=true', async () => {
    const r = await client.get(`/12/accounts/${deleted}`, { with_deleted: true });
    expect(r.status).toBe(200);
    expect(r.body.data.deleted).toBe(true);
  });
});
