/**
 * The examples as a new user finds them two years from now (docs/architecture.md, "One clock"):
 * each example of examples/ is applied on the embedded emulator and planned again with
 * ADSCTL_CLOCK two years after today's date, its manifests untouched. Their dates do not expire:
 * a line item's start in the past serves from its activation, and a flight that ended is shown,
 * not refused; README.md says how to move them to a season of one's own.
 */
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { transcript } from '../support/e2e.js';
import { removeScratch, scratch } from '../support/round-trip.js';
import { runCli } from '../support/run-cli.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');

/** Two years after today, as a shift of real time: the same instant for every process of a run. */
const TWO_YEARS_ON = '+730d';

afterAll(removeScratch);

const examples = readdirSync(EXAMPLES).filter((e) => readdirSync(join(EXAMPLES, e)).some((f) => f.endsWith('.yaml')));

it.each(examples)('examples/%s applies and plans no change two years from today', async (example) => {
  const work = join(scratch(), example);
  cpSync(join(EXAMPLES, example), work, { recursive: true });
  const env = { ADSCTL_CLOCK: TWO_YEARS_ON, NO_COLOR: '1', XDG_CONFIG_HOME: join(work, '.config') };
  const apply = await runCli(['apply', '.', '--auto-approve'], { env, cwd: work });
  expect(apply.code, transcript(apply)).toBe(0);
  const plan = await runCli(['plan', '.', '--detailed-exitcode'], { env, cwd: work });
  expect(plan.code, transcript(plan)).toBe(0);
  expect(plan.stdout).toContain('No changes.');
}, 120_000);
