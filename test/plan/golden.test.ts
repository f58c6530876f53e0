/**
 * Golden plans from manifests and live fixtures: every case directory of test/golden/plan/ is
 * planned by the harness (load → refresh from live.json → diff → buildPlan → render) and each
 * output is compared byte for byte with the file of the same name. `UPDATE_GOLDEN=1 npx vitest
 * run test/plan` rewrites them; without it a missing or different file fails. Beside the bytes,
 * a table states what each case is about (counts, requests, error codes), so a regenerated golden
 * that lost its point still fails, and every JSON plan is checked against schemas/plan.schema.json.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { isIdentifierType } from '../../src/members/sets/identifier.js';
import { normaliseIdentifier } from '../../src/members/sets/normalise.js';
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
  /** Codes of the warning diagnostics, in order. */
  warnings?: string[];
  /** Lines (or parts of lines) plan.txt shows: the wording the case is about. */
  shows?: string[];
}

const US = 'campaigns.summer_sale.line_items.us';
const SUBSCRIBERS = 'campaigns.summer_sale.line_items.subscribers';

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
  // a targeting value's name, from the lookups the plan makes, beside the value: of a criterion created, and of one deleted;
  // the campaign is paused, so the creates and deletes share one request
  'targeting-added-removed': {
    summary: { add: 3, change: 0, destroy: 2, drift: 0 },
    writes: 1,
    batches: 1,
    shows: ['+ targeting_value = "02762cca644f3e76" (Canada)', '- targeting_value = "6d737c2b077a177a" (France) -> null'],
  },
  // the US and EU line items serve: their targeting changes go in one request; the new Canadian
  // line item is created paused (one more line item batch activates it)
  'serving-safety': {
    summary: { add: 6, change: 0, destroy: 2, drift: 0 },
    writes: 5,
    batches: 4,
    shows: [
      '(in one request with every other change of the targeting criteria of campaigns.summer_sale.line_items.us, which keeps serving)',
      '(created paused, activated after its promoted posts and targeting criteria)',
    ],
  },
  'promoted-posts-added-removed': { summary: { add: 3, change: 0, destroy: 1, drift: 0 }, writes: 3, batches: 0 },
  'campaigns-41': { summary: { add: 41, change: 0, destroy: 0, drift: 0 }, writes: 2, batches: 2 },
  'campaigns-81': { summary: { add: 0, change: 81, destroy: 0, drift: 0 }, writes: 3, batches: 3 },
  'money-six-decimals': { summary: { add: 3, change: 1, destroy: 0, drift: 0 }, writes: 4, batches: 4, errors: ['bid-denomination'] },
  'lookup-problems': { summary: { add: 2, change: 0, destroy: 0, drift: 0 }, writes: 2, batches: 2, errors: ['permission-denied', 'bid-out-of-range', 'invalid-placements'] },
  'stale-saved-plan': { summary: { add: 0, change: 1, destroy: 1, drift: 0 }, writes: 2, batches: 1, refused: ['campaigns.summer_sale', `${US}.promoted_posts["1346184843440914432"]`] },
  'stale-state-serial': { summary: { add: 0, change: 1, destroy: 0, drift: 0 }, writes: 1, batches: 1, refused: ['the state of account "Acme Outdoor"'] },
  // the media upload is four requests (INIT, APPEND, FINALIZE, library), each membership one body
  'part-b-create': { summary: { add: 12, change: 0, destroy: 0, drift: 0 }, writes: 15, batches: 3, shows: ['+ members            = +132 members, −0 members, 0 unchanged (132 members)'] },
  'part-b-no-change': { summary: { add: 0, change: 0, destroy: 0, drift: 0 }, writes: 0, batches: 0, shows: ['No changes.'] },
  'part-b-drift': {
    summary: { add: 0, change: 2, destroy: 1, drift: 3 },
    writes: 3,
    batches: 0,
    drift: ['cards.summer_site', 'custom_audiences.newsletter', 'custom_audiences.newsletter.permissions["11nkq9"]'],
    shows: ['(because it was added outside adsctl, and the manifest owns the collection)'],
  },
  'part-b-media-edited': {
    summary: { add: 1, change: 1, destroy: 0, drift: 0 },
    writes: 5,
    batches: 0,
    shows: ['# media.hero must be replaced', '(a new media item is created; the old one stays on the service, because the API cannot delete it)', '# cards.summer_site will be updated in-place'],
  },
  'part-b-post-text-edited': {
    summary: { add: 2, change: 0, destroy: 1, drift: 0 },
    writes: 3,
    batches: 0,
    shows: ['# posts.launch must be replaced', '(a new post is created; the old one stays on the service, because the API cannot delete it)', `# ${SUBSCRIBERS}.promoted_posts["posts.launch"] must be replaced`],
  },
  'part-b-membership-delta': {
    summary: { add: 0, change: 1, destroy: 0, drift: 0 },
    // a Delete body and an Update body
    writes: 2,
    batches: 0,
    warnings: ['audience-invalid-identifiers'],
    shows: ['~ members = 132 members -> +3 members, −2 members, 130 unchanged (133 members)', 'data/newsletter.csv:32:1: warning audience-invalid-identifiers'],
  },
  // the media upload is four requests; a draft, a scheduled post, a conversation card, a flexible
  // audience and each membership one
  'part-b-later-create': {
    summary: { add: 10, change: 0, destroy: 0, drift: 0 },
    writes: 13,
    batches: 1,
    shows: [
      '# draft_posts.teaser will be created',
      '+ scheduled_at = "2026-12-04T17:00:00Z"',
      '+ conversation_card "trail_poll" {',
      '+ format           = "image"',
      '# posts.poll will be created',
      '# flexible_audiences.engaged_buyers will be created',
      '+ members            = +7 members, −0 members, 0 unchanged (7 members)',
    ],
  },
  'part-b-later-no-change': { summary: { add: 0, change: 0, destroy: 0, drift: 0 }, writes: 0, batches: 0, shows: ['No changes.'] },
  'part-b-later-edits': {
    summary: { add: 1, change: 3, destroy: 1, drift: 1 },
    writes: 5,
    batches: 2,
    drift: ['conversation_cards.trail_poll'],
    shows: [
      '~ text = "Something new is coming to the trail this winter." -> "Something new reaches the trail in December."',
      '~ scheduled_at = "2026-12-04T17:00:00Z" -> "2026-12-11T17:00:00Z"',
      '~ title = "Mountain or sea?" -> "Where do you hike?" (changed outside adsctl)',
      '# flexible_audiences.engaged_buyers must be replaced',
      // only the first leaf's lookback_window differs; the second leaf, written without its
      // defaults, shows them filled in on both sides
      '{ custom_audience_id = "11n8ib", frequency = 1, frequency_comparator = "NUM_GTE", lookback_window = 7, negate = false }, { custom_audience_id = "11mwad", frequency = 1, frequency_comparator = "NUM_GTE", lookback_window = 30, negate = false }] } -> { boolean_operator = "AND", child_segments = [{ custom_audience_id = "11n8ib", frequency = 1, frequency_comparator = "NUM_GTE", lookback_window = 14, negate = false }, { custom_audience_id = "11mwad", frequency = 1, frequency_comparator = "NUM_GTE", lookback_window = 30, negate = false }] } # forces replacement',
    ],
  },
};

/** Every CSV file under `dir` (member files, and the files they were last uploaded from). */
function csvFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? csvFiles(join(dir, e.name)) : e.name.endsWith('.csv') ? [join(dir, e.name)] : []));
}

/**
 * Every form an identifier of the member files of a case could take in an output: each cell as
 * written and trimmed, lower-cased, normalised as the service asks (the header names the type;
 * phone numbers with region US) and that normalised value's SHA-256. None may appear in a plan.
 */
function identifierForms(dir: string): Set<string> {
  const forms = new Set<string>();
  for (const file of csvFiles(dir)) {
    const [header = '', ...lines] = readFileSync(file, 'utf8').split(/\r?\n/);
    const types = header.split(',').map((t) => t.trim());
    for (const line of lines) {
      line.split(',').forEach((cell, i) => {
        const trimmed = cell.trim();
        if (trimmed === '') return;
        forms.add(cell);
        forms.add(trimmed);
        forms.add(trimmed.toLowerCase());
        const type = types[i] ?? '';
        const normalised = isIdentifierType(type) ? normaliseIdentifier(type, cell, 'US') : undefined;
        if (normalised === undefined) return;
        forms.add(normalised);
        forms.add(createHash('sha256').update(normalised).digest('hex'));
      });
    }
  }
  return forms;
}

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
    // identifiers of member files never reach a plan: not as written, not normalised, not hashed one by one
    const forms = [...identifierForms(fileURLToPath(dir))].map((form) => form.toLowerCase());
    for (const [file, text] of Object.entries(outputs)) {
      const lower = text.toLowerCase();
      const leaked = forms.filter((form) => lower.includes(form));
      expect(leaked, `${name}/${file} shows identifiers of its member files`).toEqual([]);
    }

    const doc = JSON.parse(outputs['plan.json'] ?? 'null') as PlanJson;
    if (!validatePlan(doc)) throw new Error(`plan.json does not match schemas/plan.schema.json: ${JSON.stringify(validatePlan.errors)}`);
    const expected = EXPECTED[name];
    if (expected === undefined) throw new Error(`no expectation for case ${name}`);
    expect(doc.summary).toEqual(expected.summary);
    expect({ writes: doc.requests.writes, batches: doc.requests.batches }).toEqual({ writes: expected.writes, batches: expected.batches });
    expect(doc.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(expected.errors ?? []);
    expect(doc.resource_changes.filter((c) => c.drift).map((c) => c.address)).toEqual(expected.drift ?? []);
    expect(doc.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.code)).toEqual(expected.warnings ?? []);
    for (const line of expected.shows ?? []) expect(outputs['plan.txt']).toContain(line);
    const refusal = outputs['refusal.txt'];
    if (expected.refused === undefined) expect(refusal).toBeUndefined();
    else for (const subject of expected.refused) expect(refusal).toContain(`  - ${subject} (`);
  });
});
