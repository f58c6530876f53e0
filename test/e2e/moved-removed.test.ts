/**
 * `moved` entries at the command line: `adsctl validate` refuses two moves onto one address and
 * two moves of one address, offline, at the second entry (exit 1). What moves, removals and import
 * entries do to a plan, an apply and the state is test/engine/moved-removed.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { seededAccountHead } from '../support/e2e.js';
import { runCli } from '../support/run-cli.js';

const campaign = (key: string, name: string): string => `  ${key}:
    name: ${name}
    funding_instrument: main
    daily_budget: "5.00"
    entity_status: PAUSED
`;

// validate reads nothing: the endpoint is never reached
const base = `${seededAccountHead('http://127.0.0.1:9')}campaigns:\n${campaign('b', 'Moved A')}${campaign('keep', 'Kept')}`;
const dir = mkdtempSync(join(tmpdir(), 'adsctl-moved-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const second = base.split('\n').length + 2;

it.each([
  ['two onto one address', 'moved:\n  - { from: campaigns.x, to: campaigns.c }\n  - { from: campaigns.y, to: campaigns.c }\n', `account.yaml:${second}:5: error duplicate-move-destination: campaigns.y cannot move to campaigns.c: another entry already moves campaigns.x there`],
  ['one address to two', 'moved:\n  - { from: campaigns.x, to: campaigns.c }\n  - { from: campaigns.x, to: campaigns.d }\n', `account.yaml:${second}:5: error duplicate-move: campaigns.x is already moved by another entry`],
])('validate refuses %s at the second entry', async (_, entries, expected) => {
  writeFileSync(join(dir, 'account.yaml'), base + entries);
  const checked = await runCli(['validate'], { cwd: dir });
  expect(checked.code, checked.stderr).toBe(1);
  expect(checked.stdout + checked.stderr).toContain(expected);
});
