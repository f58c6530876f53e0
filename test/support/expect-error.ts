/** An assertion shared by the emulator tests: the reply is an error of this status with this code (and parameter). */
import { expect } from 'vitest';
import type { Reply } from './client.js';

export function expectError(r: Reply, status: number, code: string, parameter?: string): void {
  expect(r.status, r.text).toBe(status);
  const errors = (r.body?.errors ?? []) as Array<{ code: string | number; parameter?: string }>;
  const hit = errors.find((e) => e.code === code && (parameter === undefined || e.parameter === parameter));
  expect(hit, r.text).toBeDefined();
}
