/**
 * The round trip of `adsctl generate` over the golden manifests of test/golden/ that apply
 * against the emulator (docs/architecture.md, "Contracts the code relies on"): each applied, the
 * account generated into an empty directory and planned right after — no change, no write — and
 * what generate wrote of each object holds no field its manifest left to the service. The Part A
 * cases share one account (applied one after the other, generated once); the cases with audiences
 * (whose names an account holds once) and the Part B cases each run in an emulator of their own,
 * as their fixtures were made. The golden manifests that do not apply are named, with why, and
 * checked to be refused with nothing sent, each in an emulator of its own (nothing else there).
 * Through the engine in-process (test/support/engine-round-trip.ts) against in-process emulators
 * at a manual clock that reads the test instant.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { resetRateLimits } from '../support/e2e.js';
import { expectCode } from '../support/engine-harness.js';
import { closeInProcess, engineWorkspaceAt, inProcess, roundTripInProcess, type InProcess } from '../support/engine-round-trip.js';
import { emulatedFor, goldenCases, goldenWorkspace, NOT_APPLYING } from '../support/golden-cases.js';
import { accountsOf, expectNothingBeyond, removeScratch, type Generated } from '../support/round-trip.js';

const ACCOUNT = '18ce54d4x5t';

afterAll(removeScratch);

/** Applies golden case `name` in emulator `at`: its workspace once applied, or undefined for a case refused (nothing sent) as NOT_APPLYING says. */
async function applyGolden(at: InProcess, name: string): Promise<string | undefined> {
  const { work, env } = goldenWorkspace(name);
  await resetRateLimits(at.emulator.info);
  at.log.reset();
  const ws = engineWorkspaceAt(at, work, env);
  if (NOT_APPLYING[name] !== undefined) {
    await expectCode(ws.apply({ path: '.' }), 1);
    expect(at.log.writes(), `${name}: ${NOT_APPLYING[name]}`).toEqual([]);
    return undefined;
  }
  await expectCode(ws.apply({ path: '.' }), 0);
  return work;
}

describe('the golden manifests that apply against the emulator: generate, then plan', () => {
  const cases = goldenCases();
  const applying = cases.filter((c) => NOT_APPLYING[c.name] === undefined);

  // the Part A cases side by side in the seeded account of one emulator: each applied from a
  // workspace of its own, in order, then the whole account generated once and planned
  const together = applying.filter((c) => !c.alone);
  it(`${together.map((c) => c.title).join(', ')}, in one account`, async () => {
    const at = await inProcess();
    try {
      const works: string[] = [];
      for (const c of together) {
        const work = await applyGolden(at, c.name);
        expect(work, c.name).toBeDefined();
        works.push(work as string);
      }
      const generated = await roundTripInProcess(at, ACCOUNT);
      for (const work of works) expectNothingBeyond(work, [generated]);
    } finally {
      await closeInProcess(at);
    }
  }, 300_000);

  // the others each in an emulator of its own (as their fixtures were made), side by side
  it.concurrent.each(applying.filter((c) => c.alone))('$title', async ({ name }) => {
    const at = await emulatedFor(name, inProcess);
    try {
      const work = await applyGolden(at, name);
      expect(work, name).toBeDefined();
      if (work === undefined) return;
      const generated: Generated[] = [];
      for (const id of accountsOf(work)) generated.push(await roundTripInProcess(at, id));
      expectNothingBeyond(work, generated);
    } finally {
      await closeInProcess(at);
    }
  }, 120_000);

  // the golden manifests that do not apply, each refused by an emulator of its own with nothing sent
  it.concurrent.each(cases.filter((c) => NOT_APPLYING[c.name] !== undefined))('$title: refused, nothing written', async ({ name }) => {
    const at = await inProcess();
    try {
      expect(await applyGolden(at, name)).toBeUndefined();
    } finally {
      await closeInProcess(at);
    }
  }, 120_000);
});
