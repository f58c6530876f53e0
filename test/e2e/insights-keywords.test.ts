/**
 * `adsctl insights keywords` as a user runs it, the built CLI against the emulator: the table and
 * `--json` (the service's data exactly, as the API answers it), the endpoint from ADSCTL_ENDPOINT
 * and `local`, a service error as one line, and lookups over the service's limits (11 keywords and negative
 * keywords, 8 days) refused with one line and exit 1 while the emulator receives nothing. The
 * lookups write nothing: a plan of the seeded account afterwards has no changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { createWorkspace, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';
import type { CliRun } from '../support/run-cli.js';

const SEARCH = 'GET /12/insights/keywords/search';
const WINDOW = ['--start', '2026-06-01', '--end', '2026-06-04T00:00:00Z'];

let emulator: RunningEmulator;
let client: TestClient;
let ws: Workspace;

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  ws = createWorkspace(emulator.info, seededAccountHead(emulator.info.base_url));
});
afterAll(async () => {
  await emulator.close();
  ws.remove();
});

const insights = (args: string[]): Promise<CliRun> => ws.run(['insights', 'keywords', ...args, '--endpoint', emulator.info.base_url]);
const searches = (): number => emulator.stats.byRoute[SEARCH] ?? 0;

function expectCode(run: CliRun, code: number): void {
  expect(run.code, transcript(run)).toBe(code);
}

describe('adsctl insights keywords against the emulator', () => {
  it('--json prints the data the service answers, exactly', async () => {
    const run = await insights(['hiking', 'boots', '--negative', 'rain', ...WINDOW, '--json']);
    expectCode(run, 0);
    expect(run.stderr).toBe('');
    const direct = await client.get('/12/insights/keywords/search', { granularity: 'DAY', keywords: 'hiking,boots', negative_keywords: 'rain', start_time: '2026-06-01T00:00:00Z', end_time: '2026-06-04T00:00:00Z' });
    expect(direct.status, direct.text).toBe(200);
    expect(JSON.parse(run.stdout)).toEqual(direct.body.data);
  });

  it('prints a table of the volume per day and the related keywords', async () => {
    const run = await insights(['hiking,boots', '--negative', 'rain', ...WINDOW]);
    expectCode(run, 0);
    const data = JSON.parse((await insights(['hiking', 'boots', '--negative', 'rain', ...WINDOW, '--json'])).stdout) as { related_keywords: string[]; tweet_volume: number[] };
    expect(data.tweet_volume).toHaveLength(3);
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual(['Post volume of hiking OR boots, without rain, in the service\'s default country', '2026-06-01 00:00 to 2026-06-04 00:00 UTC, by day', '']);
    expect(lines[3]).toMatch(/^ {2}DAY FROM \(UTC\) +POSTS$/);
    data.tweet_volume.forEach((v, i) => expect(lines[4 + i]).toMatch(new RegExp(`^ {2}2026-06-0${i + 1} +${v.toLocaleString('en-US')}$`)));
    expect(lines[7]).toMatch(new RegExp(`^ {2}total +${data.tweet_volume.reduce((s, v) => s + v, 0).toLocaleString('en-US')}$`));
    expect(lines[9]).toBe('Related keywords (30)');
    const listed = lines.slice(10).join(' ').trim().split(/ {2,}/);
    expect(listed).toEqual(data.related_keywords);
  });

  it('by hour, from a relative start, with the endpoint from ADSCTL_ENDPOINT', async () => {
    const fromEnv = await ws.start(['insights', 'keywords', 'hiking', '--granularity', 'HOUR', '--start', 'now-3h', '--json'], { ADSCTL_ENDPOINT: emulator.info.base_url }).done;
    expectCode(fromEnv, 0);
    expect((JSON.parse(fromEnv.stdout) as { tweet_volume: number[] }).tweet_volume).toHaveLength(3);
  });

  it('--endpoint local runs the embedded emulator with its own credentials', async () => {
    const run = await ws.run(['insights', 'keywords', 'hiking', ...WINDOW, '--endpoint', 'local', '--json']);
    expectCode(run, 0);
    expect((JSON.parse(run.stdout) as { related_keywords: string[] }).related_keywords).toHaveLength(30);
  });

  it('a refusal of the service is one line and exit 1', async () => {
    const run = await insights(['hiking', '--location', 'abda15b5fd5e427c', ...WINDOW]);
    expectCode(run, 1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Error: GET \/12\/insights\/keywords\/search: 400 INVALID_PARAMETER: Only country locations are supported[^\n]*\n$/);
  });

  it.each([
    ['11 keywords and negative keywords', ['a', 'b', 'c', 'd', 'e', 'f', '--negative', 'g', 'h', 'i', 'j', 'k'], 'Error: 11 keywords and negative keywords (6 + 5): the service takes at most 10 together\n'],
    ['11 keywords as a comma list', ['a,b,c,d,e,f,g,h,i,j,k', ...WINDOW], 'Error: 11 keywords and negative keywords (11 + 0): the service takes at most 10 together\n'],
    ['a window of 8 days', ['a', '--start', '2026-06-01', '--end', '2026-06-09'], 'Error: the window 2026-06-01T00:00:00Z to 2026-06-09T00:00:00Z is 8d long: the service takes at most 7 days (set --start or --end)\n'],
  ])('%s: refused in one line, exit 1, nothing sent', async (_what, args, line) => {
    const before = { total: emulator.stats.total, searches: searches() };
    const run = await insights(args);
    expectCode(run, 1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(line);
    expect({ total: emulator.stats.total, searches: searches() }).toEqual(before);
  });

  it('the lookups change nothing: a plan of the account has no changes', async () => {
    const run = await ws.run(['plan', '--detailed-exitcode']);
    expectCode(run, 0);
  });
});
