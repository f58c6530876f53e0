/**
 * The golden manifests of test/golden/ as end-to-end tests apply them against the emulator
 * (test/engine/generate-golden-roundtrip.test.ts at the test instant, test/engine/dates-later.test.ts
 * a year and more later): which cases are meant to apply, which are refused and why, and a case
 * copied into a workspace of its own without its expected outputs.
 */
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createSandboxAccount } from './audiences.js';
import type { TestClient } from './client.js';
import { manifestsOf, scratch, shareOutsideBusiness } from './round-trip.js';

const GOLDEN = join(import.meta.dirname, '..', 'golden');

/**
 * An emulator for golden case `name` as its fixture was made: the Part B fixtures after two
 * sandbox accounts (11mwad, 11nkq9), which their permissions name, with sharing outside the
 * business on for the seeded account; `start` starts it (round-trip.ts's `emulated` for the CLI,
 * engine-round-trip.ts's `inProcess` for the engine).
 */
export async function emulatedFor<T extends { client: TestClient }>(name: string, start: () => Promise<T>): Promise<T> {
  const at = await start();
  if (name.startsWith('plan/part-b-')) {
    for (let i = 0; i < 2; i += 1) await createSandboxAccount(at.client);
    await shareOutsideBusiness(at.client, '18ce54d4x5t');
  }
  return at;
}

/** Files of a golden case that are its expected outputs or fixtures, not what a user writes. */
const GOLDEN_OUTPUTS = ['live.json', 'state.json', 'now.json', 'uploaded.json', 'lookups.json', 'plan.txt', 'plan.md', 'plan.json', 'steps.txt', 'refusal.txt', 'desired.json', 'diagnostics.txt'];

/** Golden manifests that do not apply against the emulator, and why; each is checked to be refused. */
export const NOT_APPLYING: Readonly<Record<string, string>> = {
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
export function goldenCases(): Array<{ name: string; title: string; alone: boolean }> {
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
export function goldenWorkspace(name: string): { work: string; env: NodeJS.ProcessEnv } {
  const work = join(scratch(), name.replace('/', '-'));
  cpSync(join(GOLDEN, name), work, { recursive: true, filter: (src) => !GOLDEN_OUTPUTS.some((f) => src.endsWith(`/${f}`)) });
  const envFile = join(GOLDEN, name, 'env.json');
  return { work, env: existsSync(envFile) ? (JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>) : {} };
}
