/**
 * `adsctl api` (docs/architecture.md, "Contracts"; README, "Change an account by hand"): one
 * signed request to the endpoint and credentials a plan of the manifests would use, the JSON
 * answer on stdout. Through the built CLI against an emulator on port 0: a GET of the account's
 * campaigns; a PUT, as the seeded user adsctl_manager, that pauses an ACTIVE campaign a manifest
 * manages, which the next refresh-only plan reports as drift made by that user; arguments refused
 * in one line with nothing sent; an error answer of the service on stderr with exit 1. Then the
 * README's recipe as written, on the embedded emulator of `endpoint: local`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, expectRuns, parseStateList, seededAccountHead, stepsInOrder, type Workspace } from '../support/e2e.js';
import { testNow } from '../support/test-clock.js';

const ACCOUNT = '18ce54d4x5t';
const OWNER = '756201191646691328';
const MANAGER = '756201191646691329';
const TIME = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z`;

const manifest = (endpoint: string): string => `${seededAccountHead(endpoint)}campaigns:
  launch:
    name: Launch
    funding_instrument: main
    daily_budget: "9.00"
    entity_status: ACTIVE
`;

let emulator: RunningEmulator;
let owner: TestClient;
let ws: Workspace;
let local: Workspace;
let campaign: string;

const adsctl = expectRuns(() => ws);

/** The changes the account history holds for one campaign, as `[change_type, user_id]`. */
async function historyOf(id: string): Promise<Array<[string, string]>> {
  const hour = 3_600_000;
  const at = (ms: number): string => new Date(Math.floor(ms / hour) * hour).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const now = testNow();
  const reply = await owner.get(`/12/accounts/${ACCOUNT}/account_history`, { entity_type: 'CAMPAIGN', entity_id: id, start_time: at(now - hour), end_time: at(now + 2 * hour) });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data.map((h: { change_type: string; change_by: { user_id: string } }) => [h.change_type, h.change_by.user_id]);
}

beforeAll(async () => {
  ({ emulator, client: owner } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest(emulator.info.base_url));
});
afterAll(async () => {
  await emulator.close();
  ws?.remove();
  local?.remove();
});
stepsInOrder();

describe('adsctl api against the emulator the manifest names', () => {
  it('GETs the campaigns of the account as JSON, nothing on stderr', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    campaign = parseStateList((await adsctl(['state', 'list'], 0)).stdout).get('campaigns.launch')!;
    expect(campaign).toBeDefined();
    const run = await adsctl(['api', 'GET', `/12/accounts/${ACCOUNT}/campaigns`, 'with_deleted=false', 'count=1000'], 0);
    expect(run.stderr).toBe('');
    const answer = JSON.parse(run.stdout) as { data: Array<{ id: string; name: string; entity_status: string }>; request: { params: Record<string, unknown> } };
    expect(answer.data.map((c) => [c.id, c.name, c.entity_status])).toEqual([[campaign, 'Launch', 'ACTIVE']]);
    expect(answer.request.params).toMatchObject({ account_id: ACCOUNT });
    // a query string in the path is read as parameters, the method in any case
    const one = await adsctl(['api', 'get', `/12/accounts/${ACCOUNT}/campaigns/${campaign}?with_deleted=true`], 0);
    expect(JSON.parse(one.stdout).data).toMatchObject({ id: campaign, entity_status: 'ACTIVE' });
    // the owner's apply is in the history; the change below comes in a later second, so it is not taken for adsctl's own
    await new Promise((r) => setTimeout(r, 1100));
  });

  it('PUTs as a seeded user: the campaign is paused live, the history names that user', async () => {
    const run = await adsctl(['api', 'PUT', `/12/accounts/${ACCOUNT}/campaigns/${campaign}`, 'entity_status=PAUSED', '--as', 'adsctl_manager'], 0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout).data).toMatchObject({ id: campaign, entity_status: 'PAUSED' });
    const live = await owner.get(`/12/accounts/${ACCOUNT}/campaigns/${campaign}`);
    expect(live.body.data.entity_status).toBe('PAUSED');
    expect(await historyOf(campaign)).toEqual([
      ['CREATE', OWNER],
      ['UPDATE', MANAGER],
    ]);
  });

  it('plan --refresh-only --detailed-exitcode exits 2 and names the change and the user who made it', async () => {
    const text = (await adsctl(['plan', '--refresh-only', '--detailed-exitcode'], 2)).stdout;
    expect(text).toMatch(new RegExp(String.raw`~ entity_status = "ACTIVE" -> "PAUSED" \(changed outside adsctl by user ${MANAGER} at ${TIME}\)`));
    expect(text).toMatch(new RegExp(String.raw`~ campaigns\.launch: entity_status "ACTIVE" -> "PAUSED" by user ${MANAGER} at ${TIME}`));
    expect(text).not.toContain(`by user ${OWNER}`);
  });

  it.each([
    ['an unknown method', ['PATCH', `/12/accounts/${ACCOUNT}/campaigns`], 'Error: unknown method "PATCH": adsctl api sends GET, POST, PUT or DELETE'],
    ['a path without a leading /', ['GET', `12/accounts/${ACCOUNT}/campaigns`], `Error: PATH "12/accounts/${ACCOUNT}/campaigns" must start with / (e.g. /12/accounts): it is below the endpoint's advertising base URL`],
    ['a parameter without =', ['PUT', `/12/accounts/${ACCOUNT}/campaigns/x`, 'entity_status'], 'Error: "entity_status" is not KEY=VALUE: parameters are written name=value (entity_status=PAUSED), an empty value as name='],
    ['a parameter without a name', ['PUT', `/12/accounts/${ACCOUNT}/campaigns/x`, '=PAUSED'], 'Error: "=PAUSED": the name before = is empty'],
    ['a JSON body that is not JSON', ['POST', `/12/batch/accounts/${ACCOUNT}/campaigns`, '--data', '[{'], 'Error: --data is not valid JSON: give one JSON value, e.g. --data \'[{"operation_type":"Update","params":{...}}]\''],
    ['a user name that is none', ['GET', `/12/accounts/${ACCOUNT}/campaigns`, '--as', 'adsctl manager'], 'Error: --as "adsctl manager" is not a screen name (letters, digits and _, up to 15)'],
  ])('refuses %s in one line, exit 1, nothing sent', async (_name, args, line) => {
    const before = emulator.stats.total;
    const run = await adsctl(['api', ...args], 1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`${line}\n`);
    expect(emulator.stats.total).toBe(before);
  });

  it('an error answer of the service: exit 1, its envelope and one line on stderr, nothing on stdout', async () => {
    const run = await adsctl(['api', 'GET', `/12/accounts/${ACCOUNT}/campaigns/nosuchcampaign`], 1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(`Error: GET /12/accounts/${ACCOUNT}/campaigns/nosuchcampaign: 404 NOT_FOUND: Campaign nosuchcampaign was not found for Account ${ACCOUNT}`);
    expect(JSON.parse(lines.slice(0, -1).join('\n'))).toMatchObject({ errors: [{ code: 'NOT_FOUND', parameter: 'campaign_id' }] });
  });

  it('a seeded user the account does not allow the change is refused by the service', async () => {
    const run = await adsctl(['api', 'PUT', `/12/accounts/${ACCOUNT}/campaigns/${campaign}`, 'daily_budget_amount_local_micro=1000000', '--as', 'adsctl_analyst'], 1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Error: PUT \/12\/accounts\/18ce54d4x5t\/campaigns\/\w+: 403 ACTION_NOT_ALLOWED: /m);
    const unknown = await adsctl(['api', 'GET', `/12/accounts/${ACCOUNT}/campaigns`, '--as', 'adsctl_nobody'], 1);
    expect(unknown.stderr).toBe('Error: --as adsctl_nobody: the emulator has no user with that screen name (README, "The emulator", lists the seeded users)\n');
  });

  it('--debug traces every request with the credentials redacted, and prints no secret', async () => {
    const run = await adsctl(['api', 'GET', `/12/accounts/${ACCOUNT}/campaigns`, '--as', 'adsctl_manager', '--debug'], 0);
    const trace = run.stderr.split('\n').filter((l) => l !== '');
    expect(trace.map((l) => /^\[debug\] ((?:GET|POST|PUT|DELETE) \S+?)(\?|\s)/.exec(l)?.[1] ?? l)).toEqual([
      `POST ${emulator.info.base_url}/oauth/request_token`,
      `POST ${emulator.info.base_url}/oauth/authorize`,
      `POST ${emulator.info.base_url}/oauth/access_token`,
      `[debug] logged in as @adsctl_manager (user ${MANAGER}) through the emulator's approval page`,
      `GET ${emulator.info.ads_base_url}/12/accounts/${ACCOUNT}/campaigns`,
    ]);
    for (const line of trace.filter((l) => l.includes('Authorization:'))) expect(line).not.toMatch(/oauth_(consumer_key|token|signature|nonce|verifier)="(?!<redacted>)/);
    for (const secret of [emulator.info.consumer_key, emulator.info.consumer_secret, emulator.info.access_token, emulator.info.access_token_secret]) {
      expect(run.stderr + run.stdout).not.toContain(secret);
    }
  });

  it('apply puts the campaign back, and the next plan has nothing to change', async () => {
    await adsctl(['apply', '--auto-approve'], 0);
    await adsctl(['plan', '--detailed-exitcode'], 0);
  });
});

/** The manifest of the README's recipe, as written there. */
const RECIPE = `version: 1
endpoint: local
account: { id: "18ce54d4x5t" }   # the emulator's seeded account
funding_instruments:
  main: { id: lygyi }
campaigns:
  launch: { name: Launch, funding_instrument: main, daily_budget: "9.00", entity_status: ACTIVE }
`;

describe("the README's recipe, on the embedded emulator of endpoint: local", () => {
  const run = expectRuns(() => local);

  it('pauses a campaign by hand in .adsctl/emulator.json, and the refresh-only plan says who', async () => {
    local = createWorkspace(emulator.info, RECIPE);
    await run(['apply', '--auto-approve'], 0);
    expect(existsSync(join(local.dir, '.adsctl', 'emulator.json'))).toBe(true);
    const id = parseStateList((await run(['state', 'list'], 0)).stdout).get('campaigns.launch')!;
    // the id the README shows: a fresh emulator makes the same ids in the same order
    expect(id).toBe('11mwad');
    const listed = JSON.parse((await run(['api', 'GET', `/12/accounts/${ACCOUNT}/campaigns`], 0)).stdout) as { data: Array<{ id: string; entity_status: string }> };
    expect(listed.data.map((c) => [c.id, c.entity_status])).toEqual([[id, 'ACTIVE']]);
    await new Promise((r) => setTimeout(r, 1100));
    const before = emulator.stats.total;
    const put = await run(['api', 'PUT', `/12/accounts/${ACCOUNT}/campaigns/${id}`, 'entity_status=PAUSED', '--as', 'adsctl_manager'], 0);
    expect(JSON.parse(put.stdout).data).toMatchObject({ id, entity_status: 'PAUSED' });
    // the embedded emulator, not the one the environment's credentials belong to
    expect(emulator.stats.total).toBe(before);
    // which --endpoint (or ADSCTL_ENDPOINT) names instead, with the environment's credentials
    const elsewhere = await run(['api', 'GET', `/12/accounts/${ACCOUNT}/campaigns`, '--endpoint', emulator.info.base_url], 0);
    expect(JSON.parse(elsewhere.stdout).data.map((c: { id: string }) => c.id)).toEqual([campaign]);
    expect(emulator.stats.total).toBe(before + 1);
    const text = (await run(['plan', '--refresh-only', '--detailed-exitcode'], 2)).stdout;
    expect(text).toMatch(new RegExp(String.raw`~ entity_status = "ACTIVE" -> "PAUSED" \(changed outside adsctl by user ${MANAGER} at ${TIME}\)`));
    await run(['apply', '--auto-approve'], 0);
    await run(['plan', '--detailed-exitcode'], 0);
  });
});
