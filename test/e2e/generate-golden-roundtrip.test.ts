/**
 * The round trip of `adsctl generate` over the golden manifests of test/golden/ that apply
 * against the emulator (docs/architecture.md, "Contracts the code relies on"): each applied, the
 * account generated into an empty directory and planned right after — no change, no write — and
 * what generate wrote of each object holds no field its manifest left to the service. The Part A
 * cases share one account (applied one after the other, generated once); the cases with audiences
 * (whose names an account holds once) and the Part B cases each run in an emulator of their own,
 * as their fixtures were made. The golden manifests that do not apply are named, with why, and
 * checked to be refused with nothing sent, each in an emulator of its own (nothing else there),
 * side by side with the others rather than one after the other in the shared account's test.
 */
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxAccount } from '../support/audiences.js';
import { resetRateLimits } from '../support/e2e.js';
import { accountsOf, adsctl, closeEmulated, emulated, expectNothingBeyond, manifestsOf, removeScratch, roundTrip, scratch, shareOutsideBusiness, type Emulated, type Generated } from '../support/round-trip.js';

const GOLDEN = join(import.meta.dirname, '..', 'golden');
const ACCOUNT = '18ce54d4x5t';

afterAll(removeScratch);

/** Files of a golden case that are its expected outputs or fixtures, not what a user writes. */
const GOLDEN_OUTPUTS = ['live.json', 'state.json', 'now.json', 'uploaded.json', 'lookups.json', 'plan.txt', 'plan.md', 'plan.json', 'steps.txt', 'refusal.txt', 'desired.json', 'diagnostics.txt'];

/** Golden manifests that do not apply against the emulator, and why; each is checked to be refused. */
const NOT_APPLYING: Readonly<Record<string, string>> = {
  'plan/lookup-problems': "a campaign analyst's credentials, a bid above the maximum and an invalid placement combination",
  'plan/money-six-decimals': 'a bid off the USD denomination',
  'validate/design-example': 'a line item without start_time, and an audience too small to target',
  'validate/directory-of-accounts': 'accounts the credentials do not reach',
  'validate/imports-and-lifecycle': 'imports of ids the account does not have',
  'validate/money-forms': 'account acct1, which the credentials do not reach',
};

/** What a golden case gives adsctl: its files but the expected outputs, YAML comments left out. */
function caseContent(dir: string): string {
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(join(dir, f)).isFile() && !GOLDEN_OUTPUTS.some((o) => f.endsWith(o))).sort();
  return files.map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8').replace(f.endsWith('.yaml') ? /^\s*#.*$/gm : /$^/, '')}`).join('\n');
}

/**
 * The golden manifests meant to be valid: every plan case (but `before/`, the manifests its
 * fixtures were made from), and the validate cases with a `desired.json`; a case whose files are
 * another's but for comments is run once, under the first name, the others named beside it.
 * `alone`: the case declares audiences, whose names an account holds once, or is a Part B case,
 * whose fixture was made in an emulator of its own; the others share one account.
 */
function goldenCases(): Array<{ name: string; title: string; alone: boolean }> {
  const plan = readdirSync(join(GOLDEN, 'plan')).filter((c) => c !== 'before' && existsSync(join(GOLDEN, 'plan', c, 'plan.json')));
  const validate = readdirSync(join(GOLDEN, 'validate')).filter((c) => existsSync(join(GOLDEN, 'validate', c, 'desired.json')));
  const byContent = new Map<string, string[]>();
  for (const name of [...plan.map((c) => `plan/${c}`), ...validate.map((c) => `validate/${c}`)].sort()) {
    const content = caseContent(join(GOLDEN, name));
    byContent.set(content, [...(byContent.get(content) ?? []), name]);
  }
  return [...byContent.values()].map(([first, ...same]) => {
    const name = first as string;
    const written = manifestsOf(join(GOLDEN, name));
    const alone = name.startsWith('plan/part-b-') || written['custom_audiences'] !== undefined || written['flexible_audiences'] !== undefined;
    return { name, title: same.length === 0 ? name : `${name} (the manifests of ${same.join(', ')} too)`, alone };
  });
}

/** A golden case copied into a workspace without its outputs, and the variables its `env.json` names. */
function goldenWorkspace(name: string): { work: string; env: NodeJS.ProcessEnv } {
  const work = join(scratch(), name.replace('/', '-'));
  cpSync(join(GOLDEN, name), work, { recursive: true, filter: (src) => !GOLDEN_OUTPUTS.some((f) => src.endsWith(`/${f}`)) });
  const envFile = join(GOLDEN, name, 'env.json');
  return { work, env: existsSync(envFile) ? (JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>) : {} };
}

/** Applies golden case `name` in emulator `at`: its workspace once applied, or undefined for a case refused (nothing sent) as NOT_APPLYING says. */
async function applyGolden(at: Emulated, name: string): Promise<string | undefined> {
  const { work, env } = goldenWorkspace(name);
  await resetRateLimits(at.emulator.info);
  at.log.reset();
  if (NOT_APPLYING[name] !== undefined) {
    await adsctl(at, work, ['apply', '.', '--auto-approve'], 1, env);
    expect(at.log.writes(), `${name}: ${NOT_APPLYING[name]}`).toEqual([]);
    return undefined;
  }
  await adsctl(at, work, ['apply', '.', '--auto-approve'], 0, env);
  return work;
}

describe('the golden manifests that apply against the emulator: generate, then plan', () => {
  const cases = goldenCases();
  const applying = cases.filter((c) => NOT_APPLYING[c.name] === undefined);

  // the Part A cases side by side in the seeded account of one emulator: each applied from a
  // workspace of its own, in order, then the whole account generated once and planned
  const together = applying.filter((c) => !c.alone);
  it(`${together.map((c) => c.title).join(', ')}, in one account`, async () => {
    const at = await emulated();
    try {
      const works: string[] = [];
      for (const c of together) {
        const work = await applyGolden(at, c.name);
        expect(work, c.name).toBeDefined();
        works.push(work as string);
      }
      const generated = await roundTrip(at, ACCOUNT);
      for (const work of works) expectNothingBeyond(work, [generated]);
    } finally {
      await closeEmulated(at);
    }
  }, 300_000);

  // the others each in an emulator of its own (as their fixtures were made), side by side
  it.concurrent.each(applying.filter((c) => c.alone))('$title', async ({ name }) => {
    const at = await emulated();
    try {
      // the Part B fixtures were made after two sandbox accounts (11mwad, 11nkq9), which their permissions name, with sharing outside the business on
      if (name.startsWith('plan/part-b-')) {
        for (let i = 0; i < 2; i += 1) await createSandboxAccount(at.client);
        await shareOutsideBusiness(at.client, ACCOUNT);
      }
      const work = await applyGolden(at, name);
      expect(work, name).toBeDefined();
      if (work === undefined) return;
      const generated: Generated[] = [];
      for (const id of accountsOf(work)) generated.push(await roundTrip(at, id));
      expectNothingBeyond(work, generated);
    } finally {
      await closeEmulated(at);
    }
  }, 120_000);

  // the golden manifests that do not apply, each refused by an emulator of its own with nothing sent
  it.concurrent.each(cases.filter((c) => NOT_APPLYING[c.name] !== undefined))('$title: refused, nothing written', async ({ name }) => {
    const at = await emulated();
    try {
      expect(await applyGolden(at, name)).toBeUndefined();
    } finally {
      await closeEmulated(at);
    }
  }, 120_000);
});
