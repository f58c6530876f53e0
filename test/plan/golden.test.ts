/**
 * Golden plans from manifests and live fixtures: every case directory of test/golden/plan/ is
 * planned by the harness (load → refresh from live.json → diff → buildPlan → render) and each
 * output is compared byte for byte with the file of the same name. `UPDATE_GOLDEN=1 npx vitest
 * run test/plan` rewrites them; without it a missing or different file fails. Beside the bytes,
 * a table states what each case is about (counts, requests, error codes), so a regenerated golden
 * that lost its point still fails, and every JSON plan is checked against schemas/plan.schema.json.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { CASES_DIR, caseNames, runCase } from '../golden/plan/harness.js';

const update = process.env['UPDATE_GOLDEN'] === '1';
const schema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validatePlan = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

/** What a case must show, whatever its golden files say. */
interface Expected {
  summary: { add: number; change: number; destroy: number; drift: number };
  /** Write requests and, of them, batch requests. */
  writes: number;
  batches: number;
  /** Codes of the error diagnostics, in order. */
  errors?: string[];
  /** Addresses shown as changed outside adsctl. */
  drift?: string[];
  /** The refusal of the saved plan names these. */
  refused?: string[];
}

const US = 'campaigns.summer_sale.line_items.us';

const EXPECTED: Record<string, Expected> = {
  'create-everything': { summary: { add: 11, change: 0, destroy: 0, drift: 0 }, writes: 5, batches: 3 },
  'no-changes': { summary: { add: 0, change: 0, destroy: 0, drift: 0 }, writes: 0, batches: 0 },
  'drift-one-field': { summary: { add: 0, change: 1, destroy: 0, drift: 1 }, writes: 1, batches: 1, drift: ['campaigns.summer_sale'] },
  'edit-and-drift-same-object': { summary: { add: 0, change: 1, destroy: 0, drift: 1 }, writes: 1, batches: 1, drift: ['campaigns.summer_sale'] },
  'deleted-outside': { summary: { add: 1, change: 0, destroy: 0, drift: 1 }, writes: 1, batches: 1, drift: ['campaigns.winter_clearance'] },
  'rename-keeping-id': { summary: { add: 0, change: 1, destroy: 0, drift: 0 }, writes: 1, batches: 1 },
  replace: { summary: { add: 5, change: 0, destroy: 5, drift: 0 }, writes: 4, batches: 3 },
  delete: { summary: { add: 0, change: 0, destroy: 5, drift: 0 }, writes: 2, batches: 2 },
  'prevent-destroy-in-manifest': { summary: { add: 5, change: 0, destroy: 5, drift: 0 }, writes: 4, batches: 3, errors: ['prevent-destroy'] },
  'prevent-destroy-block-removed': { summary: { add: 5, change: 0, destroy: 5, drift: 0 }, writes: 4, batches: 3, errors: ['prevent-destroy'] },
  'prevent-destroy-resource-removed': { summary: { add: 0, change: 0, destroy: 1, drift: 0 }, writes: 1, batches: 1, errors: ['prevent-destroy'] },
  'targeting-added-removed': { summary: { add: 3, change: 0, destroy: 2, drift: 0 }, writes: 2, batches: 2 },
  'promoted-posts-added-removed': { summary: { add: 3, change: 0, destroy: 1, drift: 0 }, writes: 3, batches: 0 },
  'campaigns-41': { summary: { add: 41, change: 0, destroy: 0, drift: 0 }, writes: 2, batches: 2 },
  'campaigns-81': { summary: { add: 0, change: 81, destroy: 0, drift: 0 }, writes: 3, batches: 3 },
  'money-six-decimals': { summary: { add: 3, change: 1, destroy: 0, drift: 0 }, writes: 4, batches: 4, errors: ['bid-denomination'] },
  'lookup-problems': { summary: { add: 2, change: 0, destroy: 0, drift: 0 }, writes: 2, batches: 2, errors: ['permission-denied', 'bid-out-of-range', 'invalid-placements'] },
  'stale-saved-plan': { summary: { add: 0, change: 1, destroy: 1, drift: 0 }, writes: 2, batches: 1, refused: ['campaigns.summer_sale', `${US}.promoted_posts["1346184843440914432"]`] },
  'stale-state-serial': { summary: { add: 0, change: 1, destroy: 0, drift: 0 }, writes: 1, batches: 1, refused: ['the state of account 18ce54d4x5t'] },
};

function check(file: URL, actual: string): void {
  if (update) {
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`${file.pathname} is missing; run UPDATE_GOLDEN=1 npx vitest run test/plan`);
  expect(actual, file.pathname).toBe(readFileSync(file, 'utf8'));
}

interface PlanJson {
  summary: Expected['summary'];
  requests: { writes: number; batches: number };
  resource_changes: Array<{ address: string; drift: boolean }>;
  diagnostics: Array<{ severity: string; code: string }>;
}

describe('golden plans from manifests and live fixtures', () => {
  it('has an expectation for every case directory and a directory for every expectation', () => {
    expect(caseNames()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(caseNames())('%s', async (name) => {
    const dir = new URL(`${name}/`, CASES_DIR);
    const outputs = await runCase(fileURLToPath(dir));
    for (const [file, text] of Object.entries(outputs)) check(new URL(file, dir), text);

    const doc = JSON.parse(outputs['plan.json'] ?? 'null') as PlanJson;
    if (!validatePlan(doc)) throw new Error(`plan.json does not match schemas/plan.schema.json: ${JSON.stringify(validatePlan.errors)}`);
    const expected = EXPECTED[name];
    if (expected === undefined) throw new Error(`no expectation for case ${name}`);
    expect(doc.summary).toEqual(expected.summary);
    expect({ writes: doc.requests.writes, batches: doc.requests.batches }).toEqual({ writes: expected.writes, batches: expected.batches });
    expect(doc.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(expected.errors ?? []);
    expect(doc.resource_changes.filter((c) => c.drift).map((c) => c.address)).toEqual(expected.drift ?? []);
    const refusal = outputs['refusal.txt'];
    if (expected.refused === undefined) expect(refusal).toBeUndefined();
    else for (const subject of expected.refused) expect(refusal).toContain(`  - ${subject} (`);
  });
});
