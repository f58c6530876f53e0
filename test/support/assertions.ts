/** Assertions shared by the emulator tests: error replies, and the ids a list returns. */

import { expect } from 'vitest';
import type { Params, Reply, TestClient } from './client.js';

/** The reply is an error of this status with this code (and parameter). */
export function expectError(r: Reply, status: number, code: string, parameter?: string): void {
  expect(r.status, r.text).toBe(status);
  const errors = (r.body?.errors ?? []) as Array<{ code: string | number; parameter?: string }>;
  const hit = errors.find((e) => e.code === code && (parameter === undefined || e.parameter === parameter));
  expect(hit, r.text).toBeDefined();
}

/** The ids one page (up to 1,000) of a list returns, asserting the list answered 200. */
export async function listIds(client: TestClient, path: string, params: Params = {}): Promise<string[]> {
  const r = await client.get(path, { count: 1000, ...params });
  expect(r.status, r.text).toBe(200);
  return (r.body.data as Array<{ id: string }>).map((d) => d.id);
}
