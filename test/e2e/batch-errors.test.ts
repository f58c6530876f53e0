/**
 * Errors name the right item (issue: a valid promoted post was blamed for another post's `not
 * found`). When the service refuses one item of a request that carries several — a post id of a
 * promoted-posts POST, an item of a batch — apply reports that item only, with the service's
 * error, and sends the others again without it; the next apply, once the service takes it, plans
 * clean.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, expectRuns, LAUNCH_CAMPAIGN, listAll, parseStateList, seededAccountHead, stepsInOrder, type Workspace } from '../support/e2e.js';
import { clearRefusals, listRefusals, refuse } from '../support/refusals.js';

const ACCOUNT = '18ce54d4x5t';
const LI = 'campaigns.launch.line_items.us';
const [GOOD, BAD] = SEED_POST_IDS.slice(0, 2) as [string, string];

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;
let lineItemId: string;

const manifest = (endpoint: string): string => `${seededAccountHead(endpoint)}campaigns:
${LAUNCH_CAMPAIGN}        targeting:
          - { targeting_type: BROAD_KEYWORD, targeting_value: tents }
          - { targeting_type: BROAD_KEYWORD, targeting_value: snow }
        promoted_posts: ["${GOOD}", "${BAD}"]
`;

const adsctl = expectRuns(() => ws);

/** The output lines that report a failure: they name an address and say what went wrong. */
const errorLines = (text: string): string[] => text.split('\n').filter((line) => /error|fail|refused|not found|NOT_FOUND|INVALID/i.test(line));

const livePosts = async (): Promise<string[]> => (await listAll(client, `/12/accounts/${ACCOUNT}/promoted_tweets`, { line_item_ids: lineItemId })).map((p) => String(p['tweet_id'])).sort();
const liveKeywords = async (): Promise<string[]> => (await listAll(client, `/12/accounts/${ACCOUNT}/targeting_criteria`, { line_item_ids: lineItemId })).map((c) => String(c['targeting_value'])).sort();

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('the service refuses one item of several', () => {
  it('apply blames only the refused post and the refused criterion; the others are applied', async () => {
    await refuse(emulator.info, { method: 'POST', path: '/promoted_tweets$', match: { tweet_ids: BAD }, status: 404, code: 'NOT_FOUND', message: `Tweet ${BAD} was not found`, parameter: 'tweet_ids' });
    await refuse(emulator.info, { method: 'POST', path: '/batch/accounts/[^/]+/targeting_criteria$', match: { operation_type: 'Create', targeting_value: 'snow' }, code: 'INVALID_PARAMETER', message: 'snow is not a keyword the service takes', parameter: 'targeting_value' });
    const run = await adsctl(['apply', '--auto-approve'], 1);
    const output = run.stdout + run.stderr;
    const errors = errorLines(output).join('\n');

    expect(errors).toContain(`${LI}.promoted_posts["${BAD}"]`);
    expect(errors).toContain(`Tweet ${BAD} was not found`);
    expect(errors).not.toContain(`promoted_posts["${GOOD}"]`);
    expect(errors).toContain(`${LI}.targeting["BROAD_KEYWORD:snow"]`);
    expect(errors).toContain('snow is not a keyword the service takes');
    expect(errors).not.toContain('BROAD_KEYWORD:tents');
    expect(output).toMatch(/Apply failed/);

    lineItemId = parseStateList((await adsctl(['state', 'list'], 0)).stdout).get(LI)!;
    expect(lineItemId).toBeDefined();
    expect(await livePosts()).toEqual([GOOD]);
    expect(await liveKeywords()).toEqual(['tents']);
    expect((await listRefusals(emulator.info)).map((r) => r.fired)).toEqual([1, 1]);
  });

  it('once the service takes them, the next apply adds only what is missing, and plan reports no changes', async () => {
    await clearRefusals(emulator.info);
    const run = await adsctl(['apply', '--auto-approve'], 0);
    expect(run.stdout).toContain('Apply complete!');
    expect(run.stdout).toMatch(/2 added/);
    expect(await livePosts()).toEqual([GOOD, BAD].sort());
    expect(await liveKeywords()).toEqual(['snow', 'tents']);
    await adsctl(['plan', '--detailed-exitcode'], 0);
  });
});
