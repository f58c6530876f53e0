/**
 * Tailored audience permissions (version 5) end to end through the engine in-process and the
 * in-process emulator at a manual clock (moved a second on before the grant made by hand): an
 * audience shared under `tailored_permissions` is granted at `/5/accounts/:id/tailored_audiences/
 * :id/permissions`, plans no changes after apply (the version 12 kind reads the same grant and
 * knows it is bound), a level change is a replacement, a grant made by hand beside it is reported
 * once as made outside adsctl, and destroy takes the audience and its grants down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { createSandboxAccount, setBusiness } from '../support/audiences.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { listAll, seededAccountHead, stepsInOrder } from '../support/e2e.js';
import { createEngineWorkspace, expectCode, type EngineWorkspace } from '../support/engine-harness.js';
import { manualClock } from '../support/manual-clock.js';

const ACCOUNT = '18ce54d4x5t';
const AUDIENCE = 'custom_audiences.partners';

let emulator: RunningEmulator;
let client: TestClient;
const clock = manualClock();
let ws: EngineWorkspace;
let partner: string;
let other: string;
let audienceId: string;

const manifest = (level: string): string => `${seededAccountHead(emulator.info.base_url)}custom_audiences:
  partners:
    name: Partner audience
    tailored_permissions: { ${partner}: ${level} }
`;

const grant = (): string => `${AUDIENCE}.tailored_permissions["${partner}"]`;

/** The live grants of the audience at version `version`, as [granted account, level, audience field]. */
async function grants(version: 5 | 12): Promise<unknown[][]> {
  const path = version === 5 ? `/5/accounts/${ACCOUNT}/tailored_audiences/${audienceId}/permissions` : `/12/accounts/${ACCOUNT}/custom_audiences/${audienceId}/permissions`;
  const field = version === 5 ? 'tailored_audience_id' : 'custom_audience_id';
  return (await listAll(client, path)).map((p) => [p['granted_account_id'], p['permission_level'], p[field]]).sort();
}


beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  partner = await createSandboxAccount(client);
  other = await createSandboxAccount(client);
  for (const account of [ACCOUNT, partner, other]) await setBusiness(client, account, 'acme-business');
  ws = createEngineWorkspace(emulator.info, manifest('READ_ONLY'), clock);
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('tailored audience permissions (version 5)', () => {
  it('plans the grant under the audience and applies it at version 5', async () => {
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toContain(`# ${grant()} will be created`);
    expect(plan.stdout).toContain('Plan: 2 to add, 0 to change, 0 to destroy.');
    const apply = await expectCode(ws.apply(), 0);
    expect(apply.stdout).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
    const state = ws.bindings(ACCOUNT);
    audienceId = state.get(AUDIENCE)!;
    expect(audienceId).toBeDefined();
    const permissionId = (await listAll(client, `/5/accounts/${ACCOUNT}/tailored_audiences/${audienceId}/permissions`))[0]?.['id'];
    expect(state.get(grant())).toBe(`${audienceId}:${String(permissionId)}`);
    // one grant on the service, seen by both versions in their own words
    expect(await grants(5)).toEqual([[partner, 'READ_ONLY', audienceId]]);
    expect(await grants(12)).toEqual([[partner, 'READ_ONLY', audienceId]]);
  });

  it('plans no changes right after: the version 12 kind knows the grant is bound', async () => {
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 0);
    expect(plan.stdout).toContain('No changes.');
  });

  it('replaces the grant for a new level', async () => {
    ws.write(manifest('READ_WRITE'));
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toContain(`# ${grant()} must be replaced`);
    await expectCode(ws.apply(), 0);
    expect(await grants(5)).toEqual([[partner, 'READ_WRITE', audienceId]]);
    expect((await expectCode(ws.plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });

  it('reports a grant made by hand once, as made outside adsctl, and removes it', async () => {
    clock.advance(1000);
    const made = await client.post(`/12/accounts/${ACCOUNT}/custom_audiences/${audienceId}/permissions`, { granted_account_id: other, permission_level: 'READ_ONLY' });
    expect(made.status, made.text).toBe(201);
    const plan = await expectCode(ws.plan({ detailedExitcode: true }), 2);
    expect(plan.stdout).toContain(`# ${AUDIENCE}.permissions["${other}"] will be destroyed`);
    expect(plan.stdout).not.toContain(`tailored_permissions["${other}"]`);
    expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 1 to destroy.');
    await expectCode(ws.apply(), 0);
    expect(await grants(12)).toEqual([[partner, 'READ_WRITE', audienceId]]);
    expect((await expectCode(ws.plan({ detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });

  it('destroys the audience with its grant, and nothing is left to plan', async () => {
    const destroy = await expectCode(ws.destroy(), 0);
    expect(destroy.stdout).toContain('Destroy complete!');
    const audience = await client.get(`/12/accounts/${ACCOUNT}/custom_audiences/${audienceId}`);
    expect(audience.status === 404 || audience.body.data?.deleted === true, audience.text).toBe(true);
    expect((await expectCode(ws.plan({ destroy: true, detailedExitcode: true }), 0)).stdout).toContain('No changes.');
  });
});
