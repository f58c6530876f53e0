/**
 * The round trip of `adsctl generate` (round-trip.ts) run in the test's own process, through the
 * engine harness (engine-harness.ts, engine-adoption.ts): an in-process emulator at a manual clock
 * behind a wire log, a directory of manifests applied, the account generated into an empty
 * directory and planned right after — no change, no write, reads within the refresh's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, TestClient } from './client.js';
import { workspaceAt } from './e2e.js';
import { generateInto } from './engine-adoption.js';
import { EngineWorkspace, expectCode } from './engine-harness.js';
import { manualClock, type ManualClock } from './manual-clock.js';
import { asMap, bindingsOf, EMPTY_KIND_PROBES, scratch, type Generated } from './round-trip.js';
import { startWireLog, type WireLog } from './wire-log.js';

/** An in-process emulator at a manual clock, a client of its seeded owner, and the wire log the runs talk through. */
export interface InProcess {
  emulator: RunningEmulator;
  client: TestClient;
  log: WireLog;
  clock: ManualClock;
}

/**
 * Starts an in-process emulator at a manual clock (at `start`, TEST_INSTANT unless told, until
 * moved) and a wire log in front of it; its client signs at that clock too.
 */
export async function inProcess(start?: string): Promise<InProcess> {
  const clock = manualClock(start);
  const { emulator } = await startTestEmulator({ clock });
  return { emulator, client: new TestClient(emulator.info, undefined, clock), log: await startWireLog(emulator.info.base_url), clock };
}

/** Closes the wire log and the emulator. */
export async function closeInProcess(at: InProcess): Promise<void> {
  await at.log.close();
  await at.emulator.close();
}

/**
 * The engine on the manifests already in `dir` (a copied example or golden case), with the
 * emulator's credentials, `extra` variables (a case's env.json) and ADSCTL_ENDPOINT the wire log,
 * as the CLI tests ran the process there.
 */
export function engineWorkspaceAt(at: InProcess, dir: string, extra: NodeJS.ProcessEnv = {}): EngineWorkspace {
  const ws = workspaceAt(at.emulator.info, dir);
  Object.assign(ws.env, extra, { ADSCTL_ENDPOINT: at.log.url });
  return new EngineWorkspace(ws, at.clock);
}

/** Generates account `id` into an empty directory, then plans it: no change, no write (round-trip.ts, `roundTrip`). */
export async function roundTripInProcess(at: InProcess, id: string): Promise<Generated> {
  const ws = engineWorkspaceAt(at, scratch());
  at.log.reset();
  await expectCode(generateInto(ws, 'accounts', [id], at.log.url), 0);
  const generateReads = at.log.requests().filter((r) => !r.path.endsWith('/accounts')).length;
  const text = readFileSync(ws.path(join('accounts', `${id}.yaml`)), 'utf8');
  at.log.reset();
  const plan = await expectCode(ws.plan({ path: 'accounts', detailedExitcode: true }), 0);
  expect(plan.stdout, text).toContain('No changes.');
  expect(at.log.writes(), text).toEqual([]);
  // the account list aside, no more reads than the refresh of everything it wrote, but for one
  // request for each kind the account turned out to have none of (which a refresh never reads)
  const refreshReads = at.log.requests().length;
  expect(generateReads, `generate ${id}: ${generateReads} reads; the refresh after it: ${refreshReads}`).toBeLessThanOrEqual(Math.ceil(refreshReads * 1.05) + EMPTY_KIND_PROBES);
  const addressesOf = new Map<string, string[]>();
  for (const [address, bound] of bindingsOf(ws.path('accounts'))) addressesOf.set(bound, [...(addressesOf.get(bound) ?? []), address]);
  return { text, doc: asMap(parse(text)), addressesOf };
}
