/**
 * The manifest names what adsctl cannot rebuild from live data: a media library item by its
 * `id` (its bytes are not here) and a custom audience without `users` (its members are not
 * managed). The plan binds both, changes only the fields written, and plans nothing after apply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, expectRuns, seededAccountHead, stepsInOrder, type Workspace } from '../support/e2e.js';
import { png } from '../support/media-bytes.js';
import { libraryMedia } from '../support/media-library.js';

const ACCOUNT = '18ce54d4x5t';

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;
let mediaKey: string;
let audienceId: string;

const manifest = (endpoint: string, name: string): string => `${seededAccountHead(endpoint)}media:
  hero: { id: "${mediaKey}", name: ${name} }
custom_audiences:
  newsletter: { name: Newsletter subscribers }
import:
  - { to: custom_audiences.newsletter, id: "${audienceId}" }
`;

const adsctl = expectRuns(() => ws);

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  mediaKey = await libraryMedia(client, ACCOUNT, png(64, 64), 'image/png', { name: 'Hero by hand' });
  const audience = await client.post(`/12/accounts/${ACCOUNT}/custom_audiences`, { name: 'Newsletter subscribers' });
  audienceId = String(audience.body.data.id);
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url, 'Hero by hand'));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('an existing media library item and an audience whose members adsctl does not manage', () => {
  it('validates without a file and without users', async () => {
    await adsctl(['validate'], 0);
  });

  it('binds both and changes nothing when the manifest matches', async () => {
    const plan = await adsctl(['plan', '--json'], 0);
    const doc = JSON.parse(plan.stdout) as { resource_changes: Array<{ address: string; change: { actions: string[] } }> };
    for (const c of doc.resource_changes) expect(c.change.actions, c.address).not.toContain('create');
    await adsctl(['apply', '--auto-approve'], 0);
    expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });

  it('renames the library item in place, never uploads it', async () => {
    ws.write(manifest(emulator.info.base_url, 'Hero image'));
    const plan = await adsctl(['plan', '--detailed-exitcode'], 2);
    expect(plan.stdout).toContain('1 to change');
    await adsctl(['apply', '--auto-approve'], 0);
    const library = await client.get(`/12/accounts/${ACCOUNT}/media_library`);
    const item = (library.body.data as Array<Record<string, unknown>>).find((r) => r['media_key'] === mediaKey);
    expect(item?.['name']).toBe('Hero image');
    expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });

  it('refuses an entry with both an id and a file', async () => {
    ws.write(manifest(emulator.info.base_url, 'Hero image').replace(`id: "${mediaKey}",`, `id: "${mediaKey}", file: hero.png,`));
    const run = await adsctl(['validate'], 1);
    expect(run.stdout + run.stderr).toContain('media-content');
  });
});
