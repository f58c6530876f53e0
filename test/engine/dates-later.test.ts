/**
 * The guard against fixtures that expire (docs/architecture.md, "One clock"): the golden manifests
 * that apply are applied and planned again through the engine in-process, with the manual clock of
 * the runs, of the in-process emulator and of the requests the test signs set to today + 400 days,
 * whatever day the suite runs. Their dates are written relative to the test
 * instant (test/support/test-clock.ts), so each is moved by the same whole number of days as the
 * clock; a date-dependent refusal — a scheduled post in the past, say — fails the case, naming
 * it. Every distinct use of a date is applied: the first case (by name) of each set of
 * `field: date` pairs its manifests hold, so a fixture that writes a date anew is always among
 * them, and twenty cases that share one line item start are applied once. A case whose fixture
 * holds a date before the test instant is shown to fail this way.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resetRateLimits, transcript } from '../support/e2e.js';
import { expectCode } from '../support/engine-harness.js';
import { closeInProcess, engineWorkspaceAt, inProcess, type InProcess } from '../support/engine-round-trip.js';
import { emulatedFor, goldenCases, goldenWorkspace, NOT_APPLYING } from '../support/golden-cases.js';
import { removeScratch } from '../support/round-trip.js';
import { TEST_INSTANT } from '../support/test-clock.js';

const DAY_MS = 86_400_000;

/** Whole days from the test instant to today + 400 days (today by the real clock: this guard is about the days passing). */
const LATER_DAYS = Math.ceil((Date.now() + 400 * DAY_MS - Date.parse(TEST_INSTANT)) / DAY_MS);

/** Dates and date-times as manifests write them (docs/manifest.md, "Times"). */
const DATE = /\b(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?(?![\d-])/g;

/** `text` with every valid date moved `days` days later, times of day and offsets kept. */
function moveDates(text: string, days: number): string {
  return text.replace(DATE, (whole, y: string, m: string, d: string, time: string | undefined) => {
    const at = Date.UTC(Number(y), Number(m) - 1, Number(d));
    if (new Date(at).getUTCDate() !== Number(d) || Number(m) > 12) return whole;
    return `${new Date(at + days * DAY_MS).toISOString().slice(0, 10)}${time ?? ''}`;
  });
}

/** The `field: date` pairs of a golden case's manifests, comments left out: what its dates are used for. */
function dateUses(name: string): string {
  const dir = join(import.meta.dirname, '..', 'golden', name);
  const uses = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const code = line.replace(/(^|\s)#.*$/, '');
      for (const m of code.matchAll(/(\w+):\s*"?(\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2}))?)/g)) uses.add(`${m[1]}=${m[2]}`);
    }
  }
  return [...uses].sort().join(' ');
}

/** Moves the dates of every manifest of `work` by `days`. */
function moveWorkspaceDates(work: string, days: number): void {
  for (const f of readdirSync(work).filter((n) => n.endsWith('.yaml'))) writeFileSync(join(work, f), moveDates(readFileSync(join(work, f), 'utf8'), days));
}

/** The test instant moved LATER_DAYS days on: where the emulators this file starts, the runs and the requests it signs stand. */
const LATER = new Date(Date.parse(TEST_INSTANT) + LATER_DAYS * DAY_MS).toISOString();

/** An in-process emulator (and its wire log) at LATER. */
const later = (): Promise<InProcess> => inProcess(LATER);

afterAll(removeScratch);

/** Golden case `name` in a workspace of its own, its dates moved with the clock. */
function laterWorkspace(name: string): { work: string; env: NodeJS.ProcessEnv } {
  const workspace = goldenWorkspace(name);
  moveWorkspaceDates(workspace.work, LATER_DAYS);
  return workspace;
}

/** Applies the workspace in `at`, then plans it: exit 0 both, and no change left. */
async function applyAndPlan(at: InProcess, name: string, work: string, env: NodeJS.ProcessEnv): Promise<void> {
  await resetRateLimits(at.emulator.info);
  const ws = engineWorkspaceAt(at, work, env);
  await expectCode(ws.apply({ path: '.' }), 0);
  const plan = await expectCode(ws.plan({ path: '.', detailedExitcode: true }), 0);
  expect(plan.stdout, name).toContain('No changes.');
}

describe(`the golden manifests, applied ${LATER_DAYS} days after the test instant with their dates moved as far`, () => {
  const firstOfEachUse = new Map<string, ReturnType<typeof goldenCases>[number]>();
  for (const c of goldenCases().filter((g) => NOT_APPLYING[g.name] === undefined)) {
    const uses = dateUses(c.name);
    if (uses !== '' && !firstOfEachUse.has(uses)) firstOfEachUse.set(uses, c);
  }
  const applying = [...firstOfEachUse.values()];

  it('finds the dates of the golden manifests where they are used', () => {
    expect(dateUses('plan/part-b-later-edits')).toBe('scheduled_at=2026-12-11T17:00:00Z');
    expect(dateUses('plan/create-everything')).toBe('start_time=2026-12-01T00:00:00Z');
    expect([...firstOfEachUse.values()].map((c) => c.name)).toContain('plan/part-b-later-create');
  });

  const together = applying.filter((c) => !c.alone);
  it(`${together.map((c) => c.name).join(', ')}, in one account`, async () => {
    const at = await later();
    try {
      for (const c of together) {
        const { work, env } = laterWorkspace(c.name);
        await applyAndPlan(at, c.name, work, env);
      }
    } finally {
      await closeInProcess(at);
    }
  }, 300_000);

  it.concurrent.each(applying.filter((c) => c.alone))('$name', async ({ name }) => {
    const at = await emulatedFor(name, later);
    try {
      const { work, env } = laterWorkspace(name);
      await applyAndPlan(at, name, work, env);
    } finally {
      await closeInProcess(at);
    }
  }, 120_000);
});

describe('the guard itself', () => {
  it('moves dates and date-times by whole days, and leaves what is not a date alone', () => {
    const rows: Array<[string, number, string]> = [
      ['scheduled_at: 2026-12-04T17:00:00Z', 400, 'scheduled_at: 2028-01-08T17:00:00Z'],
      ['start_time: 2026-12-01', 31, 'start_time: 2027-01-01'],
      ['end_time: "2027-02-28T23:59:59+02:00"', 1, 'end_time: "2027-03-01T23:59:59+02:00"'],
      ['purchase_order_number: PO-2027-014', 400, 'purchase_order_number: PO-2027-014'],
      ['bad: 2026-02-30T00:00:00Z', 400, 'bad: 2026-02-30T00:00:00Z'],
      ['name: Summer Sale 2027', 400, 'name: Summer Sale 2027'],
    ];
    for (const [text, days, moved] of rows) expect(moveDates(text, days), text).toBe(moved);
  });

  it('fails a fixture holding a date before the test instant: the scheduled post is refused, nothing sent', async () => {
    const at = await emulatedFor('plan/part-b-later-create', later);
    try {
      const { work, env } = goldenWorkspace('plan/part-b-later-create');
      const manifest = join(work, 'account.yaml');
      const text = readFileSync(manifest, 'utf8');
      // a day before the test instant: in the past at the test instant, and so still in the past after the move
      const dayBefore = new Date(Date.parse(TEST_INSTANT) - DAY_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const past = text.replace(/scheduled_at: \S+/, `scheduled_at: ${dayBefore}`);
      expect(past).not.toBe(text);
      writeFileSync(manifest, past);
      moveWorkspaceDates(work, LATER_DAYS);
      await resetRateLimits(at.emulator.info);
      const run = await engineWorkspaceAt(at, work, env).apply({ path: '.' });
      // refused by the plan, at the manifest's line, before anything is sent
      expect(run.code, transcript(run)).toBe(1);
      expect(run.stdout + run.stderr).toMatch(/account\.yaml:\d+:\d+: error time-past: scheduled_posts\.\w+: scheduled_at \S+ is not in the future/);
      expect(at.log.writes()).toEqual([]);
    } finally {
      await closeInProcess(at);
    }
  }, 120_000);
});
