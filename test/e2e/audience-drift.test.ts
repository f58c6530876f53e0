/**
 * Membership drift by the counts the service gives: members added to an audience outside adsctl
 * show as a larger size than was uploaded, and the plan says so (by counts only, naming no member)
 * without planning anything it cannot do — the service does not say which members they are.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, parseStateList, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

const emails = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);
const sha = (value: string): string => createHash('sha256').update(value).digest('hex');

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, `${seededAccountHead(emulator.info.base_url)}custom_audiences:
  crm:
    name: E2E drift audience
    users: { file: members.csv }
`);
  writeFileSync(join(ws.dir, 'members.csv'), ['email', ...emails(150, 'member')].join('\n') + '\n');
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});

it('reports members added outside adsctl by the size the service shows, planning nothing for them', async () => {
  const apply = await ws.run(['apply', '--auto-approve']);
  expect(apply.code, transcript(apply)).toBe(0);
  const audience = parseStateList((await ws.run(['state', 'list'])).stdout).get('custom_audiences.crm')!;

  const clean = await ws.run(['plan', '--detailed-exitcode']);
  expect(clean.code, transcript(clean)).toBe(0);
  expect(clean.stderr).not.toContain('members-added-outside');

  const byHand = emails(300, 'outsider').map((e) => ({ email: [sha(e)] }));
  const added = await client.post(`/12/accounts/${ACCOUNT}/custom_audiences/${audience}/users`, undefined, { json: [{ operation_type: 'Update', params: { users: byHand } }] });
  expect(added.status, added.text).toBe(200);

  const plan = await ws.run(['plan', '--detailed-exitcode']);
  expect(plan.code, transcript(plan)).toBe(0);
  const output = plan.stdout + plan.stderr;
  expect(output).toMatch(/warning members-added-outside: custom_audiences\.crm\.users: the service reports about 450 members, more than the 150 adsctl uploaded/);
  expect(output).not.toContain('outsider');
});
