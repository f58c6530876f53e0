/**
 * A member file's CSV header, through the real CLI: `validate` refuses a header `plan` refuses,
 * with the same one error at the file, line and column, and `plan` says it once — not followed
 * by a `missing-required` that told the user to set the members they had named. Once the header
 * is put right, the audience applies and plans clean.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, expectRuns, seededAccountHead, stepsInOrder, type Workspace } from '../support/e2e.js';

let emulator: RunningEmulator;
let ws: Workspace;
const adsctl = expectRuns(() => ws);

const MEMBERS = Array.from({ length: 120 }, (_, i) => `person${i}@example.com`).join('\n');

/** The error lines of a run's output (`file:line:col: error CODE: message`). */
const errorLines = (text: string): string[] => text.split('\n').filter((line) => /^\S+:\d+:\d+: error /.test(line));

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  ws = createWorkspace(emulator.info, `${seededAccountHead(emulator.info.base_url)}custom_audiences:\n  newsletter:\n    name: Header test\n    users: { file: data/members.csv }\n`);
  mkdirSync(join(ws.dir, 'data'));
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});
stepsInOrder();

describe('a member file whose header plan refuses', () => {
  it.each([
    { name: 'a misspelt type', header: 'emial', at: 'data/members.csv:1:1' },
    { name: 'a type named twice', header: 'email,handle,email', at: 'data/members.csv:1:14' },
  ])('$name: validate and plan say the same, once', async ({ header, at }) => {
    writeFileSync(join(ws.dir, 'data', 'members.csv'), `${header}\n${MEMBERS}\n`);
    const validated = errorLines((await adsctl(['validate'], 1)).stderr);
    expect(validated).toHaveLength(1);
    expect(validated[0]).toMatch(new RegExp(`^${at.replace(/\./g, '\\.')}: error audience-file-header: `));
    const planned = await adsctl(['plan'], 1);
    expect(errorLines(`${planned.stdout}\n${planned.stderr}`)).toEqual(validated);
    expect(planned.stdout + planned.stderr).toContain('Planning failed: 1 error.');
  });
});

describe('once the header is put right', () => {
  it('validates, applies, and the plan after shows no changes', async () => {
    writeFileSync(join(ws.dir, 'data', 'members.csv'), `email\n${MEMBERS}\n`);
    await adsctl(['validate'], 0);
    expect((await adsctl(['apply', '--auto-approve'], 0)).stdout).toContain('Apply complete!');
    expect((await adsctl(['plan', '--detailed-exitcode'], 0)).stdout).toContain('No changes.');
  });
});
