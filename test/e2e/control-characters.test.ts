/**
 * A control character in a name, through the real CLI: `validate`, `plan` and `apply` refuse it at
 * its line and column, exit 1, and nothing is sent to the service; once it is taken out, the
 * manifest applies and plans clean.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, expectRuns, seededAccountHead, stepsInOrder, type Workspace } from '../support/e2e.js';

let emulator: RunningEmulator;
let ws: Workspace;
const adsctl = expectRuns(() => ws);

const manifest = (name: string): string => `${seededAccountHead(emulator.info.base_url)}campaigns:
  sale:
    name: ${name}
    funding_instrument: main
    daily_budget: "5.00"
    entity_status: PAUSED
`;

const writes = (): number => ['POST', 'PUT', 'DELETE'].reduce((n, m) => n + (emulator.stats.byMethod[m] ?? 0), 0);

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  ws = createWorkspace(emulator.info, '');
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});
stepsInOrder();

describe('a control character in a campaign name', () => {
  it.each([
    { name: 'a NUL', written: '"Spring\\0Sale"', at: 'account.yaml:9:18' },
    { name: 'a tab', written: '"Spring\\tSale"', at: 'account.yaml:9:18' },
    { name: 'an escape sequence', written: '"Spring\\e[2JSale"', at: 'account.yaml:9:18' },
  ])('$name: refused at its position by validate, plan and apply, nothing sent', async ({ written, at }) => {
    ws.write(manifest(written));
    const before = writes();
    for (const args of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
      const run = await adsctl(args, 1);
      expect(run.stderr).toContain(`${at}: error control-character: name `);
      expect(run.stderr).not.toMatch(/[\u0000\u001b]/);
    }
    expect(writes()).toBe(before);
  });
});

describe('once it is taken out', () => {
  it('applies, and the plan after shows no changes', async () => {
    ws.write(manifest('"Spring Sale"'));
    expect((await adsctl(['apply', '--auto-approve'], 0)).stdout).toContain('Apply complete!');
    expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });
});
