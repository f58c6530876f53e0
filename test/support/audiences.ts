/**
 * Audience fixtures for the emulator tests and the upload bench: hashed identifiers, audiences,
 * users operations, sandbox accounts and the audience control endpoint.
 */
import { createHash } from 'node:crypto';
import type { Reply, TestClient } from './client.js';

/** `n` distinct SHA-256 hex values (lowercase, 64 characters) derived from `seed`. */
export function hashes(n: number, seed = 'user', from = 0): string[] {
  return Array.from({ length: n }, (_, i) => createHash('sha256').update(`${seed}:${from + i}`).digest('hex'));
}

/** One users operation; `users` default to one email each. */
export function usersOp(type: 'Update' | 'Delete', users: Array<Record<string, string[]>>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { operation_type: type, params: { users, ...extra } };
}

/** User entries holding one email hash each. */
export const emails = (values: readonly string[]): Array<Record<string, string[]>> => values.map((v) => ({ email: [v] }));

let serial = 0;

/** Creates a CRM custom audience and returns its record. */
export async function createAudience(client: TestClient, account: string, name = `audience ${++serial}`): Promise<any> {
  const r = await client.post(`/12/accounts/${account}/custom_audiences`, { name });
  if (r.status !== 201) throw new Error(`createAudience failed (${r.status}): ${r.text}`);
  return r.body.data;
}

/** Posts users operations to a custom audience. */
export function uploadUsers(client: TestClient, account: string, audienceId: string, ops: unknown): Promise<Reply> {
  return client.post(`/12/accounts/${account}/custom_audiences/${audienceId}/users`, {}, { json: ops });
}

/** Creates an audience with `members` email members, so it is targetable from 100 on. */
export async function filledAudience(client: TestClient, account: string, members: number, name?: string): Promise<any> {
  const audience = await createAudience(client, account, name);
  const r = await uploadUsers(client, account, audience.id, [usersOp('Update', emails(hashes(members, `fill-${audience.id}`)))]);
  if (r.status !== 200) throw new Error(`upload failed (${r.status}): ${r.text}`);
  return (await client.get(`/12/accounts/${account}/custom_audiences/${audience.id}`)).body.data;
}

/** Creates a sandbox ad account of the client's user and returns its id. */
export async function createSandboxAccount(client: TestClient): Promise<string> {
  const r = await client.post('/12/accounts', {}, { base: 'sandbox' });
  if (r.status !== 201) throw new Error(`create account failed (${r.status}): ${r.text}`);
  return r.body.data[0].id;
}

/** Member counts of one audience or do-not-reach list from the control endpoint. */
export async function memberCounts(client: TestClient, id: string): Promise<{ members: number; unmatched: number }> {
  const r = await client.get('/_emulator/audiences', {}, { base: 'root', creds: null });
  const all = [...r.body.custom_audiences, ...r.body.do_not_reach_lists] as Array<{ id: string; members: number; unmatched: number }>;
  const hit = all.find((a) => a.id === id);
  if (hit === undefined) throw new Error(`no audience ${id} in ${r.text}`);
  return { members: hit.members, unmatched: hit.unmatched };
}

/** Puts an account into a business (control endpoint). */
export async function setBusiness(client: TestClient, account: string, businessId: string | null): Promise<void> {
  const r = await client.post(`/_emulator/accounts/${account}/business`, {}, { base: 'root', creds: null, json: { business_id: businessId, business_name: businessId } });
  if (r.status !== 200) throw new Error(`set business failed (${r.status}): ${r.text}`);
}
