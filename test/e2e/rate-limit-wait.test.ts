/**
 * A run that must wait for a rate limit says so at once: plans from fresh checkouts (no lookup
 * cache) spend the user's global lookup budget, and the next one, instead of waiting up to a
 * quarter of an hour in silence while it holds the lock, prints what it waits for, until when and
 * how to avoid it (keep the lookup cache). Ctrl-C then stops it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, seededAccountHead, transcript, waitUntil, type Workspace } from '../support/e2e.js';

let emulator: RunningEmulator;
const workspaces: Workspace[] = [];

const manifest = (endpoint: string, n: number): string => `${seededAccountHead(endpoint)}campaigns:
  wait_${n}: { name: "Wait ${n}", funding_instrument: main, daily_budget: "5.00", entity_status: PAUSED }
`;

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
});
afterAll(async () => {
  await emulator.close();
  for (const ws of workspaces) ws.remove();
});

describe('a plan that must wait for the global lookup budget', () => {
  it('says what it waits for, until when and how to avoid it, at once', async () => {
    // fresh checkouts, one after another, until one has to wait (the budget is a few reads a quarter)
    let waiting: ReturnType<Workspace['start']> | undefined;
    for (let n = 0; n < 10 && waiting === undefined; n++) {
      const ws = createWorkspace(emulator.info, manifest(emulator.info.base_url, n));
      workspaces.push(ws);
      const run = ws.start(['plan']);
      const outcome = await Promise.race([run.done.then(() => 'done' as const), waitUntil('a wait notice or the end of the plan', () => run.stderr().includes('Waiting ')).then(() => 'waiting' as const)]);
      if (outcome === 'waiting') waiting = run;
      else expect((await run.done).code, transcript(await run.done)).toBe(0);
    }
    expect(waiting, 'no plan had to wait for the global lookup budget').toBeDefined();
    const stderr = waiting!.stderr();
    expect(stderr).toMatch(/Waiting \d+ min( \d+ s)?, until \d\d:\d\d:\d\d UTC, for the service's rate limit on GET \/12\/[a-z_/]+: /);
    expect(stderr).toContain('.adsctl/cache');
    waiting!.child.kill('SIGINT');
    const ended = await waiting!.done;
    expect(ended.code, transcript(ended)).not.toBe(0);
  });
});
