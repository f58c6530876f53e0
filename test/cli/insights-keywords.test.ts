/**
 * `adsctl insights keywords`: the checks made before anything is sent (the service's limits of 10
 * keywords and negative keywords together and a 7-day window, times that read, granularity), the
 * time forms at a fixed moment, the table, a refusal through `main` as one line with exit 1, and
 * the command in the bash completion script.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keywordQuery, parseTimeArg, wireTime, type KeywordFlags } from '../../src/cli/insights-command.js';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { renderKeywordInsights } from '../../src/render/keyword-insights.js';
import { runCli } from '../support/run-cli.js';
import { testClock } from '../support/test-clock.js';

const NOW = new Date('2026-06-15T12:34:56.789Z');

describe('parseTimeArg at 2026-06-15T12:34:56.789Z', () => {
  const cases: Array<[string, string | undefined]> = [
    ['now', '2026-06-15T12:34:56Z'],
    ['NOW', '2026-06-15T12:34:56Z'],
    ['today', '2026-06-15T00:00:00Z'],
    ['now-36h', '2026-06-14T00:34:56Z'],
    ['now-90m', '2026-06-15T11:04:56Z'],
    ['today-6d', '2026-06-09T00:00:00Z'],
    ['-2d', '2026-06-13T12:34:56Z'],
    ['-1w', '2026-06-08T12:34:56Z'],
    ['2026-06-01', '2026-06-01T00:00:00Z'],
    ['2026-06-01T12:00:00Z', '2026-06-01T12:00:00Z'],
    ['2026-06-01T12:00Z', '2026-06-01T12:00:00Z'],
    ['2026-06-01T12:00:00.999Z', '2026-06-01T12:00:00Z'],
    ['2026-06-01T14:00:00+02:00', '2026-06-01T12:00:00Z'],
    ['2026-06-01T14:00-0200', '2026-06-01T16:00:00Z'],
    ['2026-06-01T12:00:00', '2026-06-01T12:00:00Z'],
    ['2026-06-01 12:00', '2026-06-01T12:00:00Z'],
    ['2028-02-29', '2028-02-29T00:00:00Z'],
    ['', undefined],
    ['yesterday', undefined],
    ['now+1d', undefined],
    ['-2y', undefined],
    ['2026-02-30', undefined],
    ['2026-13-01', undefined],
    ['2026-06-01T24:00:00Z', undefined],
    ['06/01/2026', undefined],
    ['1780315200', undefined],
  ];
  it.each(cases)('%j is %s', (text, expected) => {
    const at = parseTimeArg(text, NOW);
    expect(at === undefined ? undefined : wireTime(at)).toBe(expected);
  });
});

describe('keywordQuery accepts', () => {
  const cases: Array<[string, string[], KeywordFlags, Record<string, unknown>]> = [
    ['defaults: DAY, the 7 days up to now', ['hiking'], {}, { granularity: 'DAY', keywords: ['hiking'], negatives: [], start: '2026-06-08T12:34:56Z', end: '2026-06-15T12:34:56Z', location: undefined }],
    ['a start 7 days before a given end', ['hiking'], { end: '2026-06-10' }, { start: '2026-06-03T00:00:00Z', end: '2026-06-10T00:00:00Z' }],
    ['hour granularity in any case', ['hiking'], { granularity: 'hour', start: 'now-6h' }, { granularity: 'HOUR', start: '2026-06-15T06:34:56Z' }],
    ['comma lists and separate words alike', ['hiking,boots', ' trail '], { negative: ['rain,snow', 'mud'] }, { keywords: ['hiking', 'boots', 'trail'], negatives: ['rain', 'snow', 'mud'] }],
    ['10 keywords and negative keywords together', ['a,b,c,d,e,f'], { negative: ['g,h,i,j'] }, { keywords: ['a', 'b', 'c', 'd', 'e', 'f'], negatives: ['g', 'h', 'i', 'j'] }],
    ['exactly 7 days', ['a'], { start: '2026-06-01T00:00:00Z', end: '2026-06-08T00:00:00Z' }, { start: '2026-06-01T00:00:00Z', end: '2026-06-08T00:00:00Z' }],
    ['one second', ['a'], { start: '2026-06-01T00:00:00Z', end: '2026-06-01T00:00:01Z' }, { end: '2026-06-01T00:00:01Z' }],
    ['a location', ['a'], { location: ' 96683cc9126741d1 ' }, { location: '96683cc9126741d1' }],
  ];
  it.each(cases)('%s', (_what, args, flags, expected) => {
    const checked = keywordQuery(args, flags, NOW);
    if (!('query' in checked)) throw new Error(checked.problem);
    const { start, end, ...rest } = checked.query;
    expect({ ...rest, start: wireTime(start), end: wireTime(end) }).toMatchObject(expected);
  });
});

describe('keywordQuery refuses before anything is sent', () => {
  const cases: Array<[string, string[], KeywordFlags, RegExp]> = [
    ['11 keywords', ['a,b,c,d,e,f,g,h,i,j,k'], {}, /^11 keywords and negative keywords \(11 \+ 0\): the service takes at most 10 together$/],
    ['11 keywords and negative keywords', ['a', 'b', 'c', 'd', 'e', 'f'], { negative: ['g', 'h', 'i', 'j', 'k'] }, /^11 keywords and negative keywords \(6 \+ 5\)/],
    ['a window of 7 days and a second', ['a'], { start: '2026-06-01T00:00:00Z', end: '2026-06-08T00:00:01Z' }, /^the window 2026-06-01T00:00:00Z to 2026-06-08T00:00:01Z is 7d 1s long: the service takes at most 7 days/],
    ['a start 8 days ago with the default end', ['a'], { start: 'today-8d' }, /^the window 2026-06-07T00:00:00Z to 2026-06-15T12:34:56Z is 8d 12h 34m 56s long: the service takes at most 7 days/],
    ['an end before the start', ['a'], { start: '2026-06-02', end: '2026-06-01' }, /^the start 2026-06-02T00:00:00Z is not before the end 2026-06-01T00:00:00Z$/],
    ['an end equal to the start', ['a'], { start: 'now', end: 'now' }, /is not before the end/],
    ['a start after now with the default end', ['a'], { start: '2026-06-16' }, /^the start 2026-06-16T00:00:00Z is not before the end 2026-06-15T12:34:56Z$/],
    ['a start that is not a time', ['a'], { start: 'last week' }, /^--start "last week" is not a time: expected ISO 8601/],
    ['an end that is not a time', ['a'], { end: '2026-02-30' }, /^--end "2026-02-30" is not a time/],
    ['granularity WEEK', ['a'], { granularity: 'WEEK' }, /^--granularity must be DAY or HOUR, not "WEEK"$/],
    ['only commas for keywords', [',', ' , '], {}, /^give at least one keyword$/],
    ['an empty location', ['a'], { location: ' ' }, /^--location is empty/],
  ];
  it.each(cases)('%s', (_what, args, flags, problem) => {
    const checked = keywordQuery(args, flags, NOW);
    expect('problem' in checked ? checked.problem : 'accepted').toMatch(problem);
  });
});

describe('the table', () => {
  const related = Array.from({ length: 30 }, (_, i) => `kw${i}`);
  it('lists the volume of each bucket from its start in UTC, the total, and the related keywords in columns', () => {
    const text = renderKeywordInsights({
      keywords: ['hiking', 'boots'],
      negatives: ['rain'],
      granularity: 'DAY',
      start: new Date('2026-06-01T00:00:00Z'),
      end: new Date('2026-06-03T12:00:00Z'),
      location: '96683cc9126741d1',
      data: { related_keywords: related, tweet_volume: [12345, 678, 90] },
    });
    expect(text.split('\n').slice(0, 10)).toEqual([
      'Post volume of hiking OR boots, without rain, in location 96683cc9126741d1',
      '2026-06-01 00:00 to 2026-06-03 12:00 UTC, by day',
      '',
      '  DAY FROM (UTC)   POSTS',
      '  2026-06-01      12,345',
      '  2026-06-02         678',
      '  2026-06-03          90',
      '  total           13,113',
      '',
      'Related keywords (30)',
    ]);
    expect(text.split('\n').slice(10)).toEqual([...Array.from({ length: 10 }, (_, r) => `  ${[0, 1, 2].map((c) => `kw${r * 3 + c}`.padEnd(6)).join('').trimEnd()}`), '']);
  });

  it('labels hours, and days that start off midnight, with their time', () => {
    const view = { keywords: ['a'], negatives: [], start: new Date('2026-06-01T22:00:00Z'), end: new Date('2026-06-02T00:00:00Z'), location: undefined, data: { related_keywords: [], tweet_volume: [5, 7] } };
    expect(renderKeywordInsights({ ...view, granularity: 'HOUR' })).toContain("in the service's default country\n2026-06-01 22:00 to 2026-06-02 00:00 UTC, by hour\n\n  HOUR FROM (UTC)   POSTS\n  2026-06-01 22:00      5\n  2026-06-01 23:00      7\n  total                12\n");
    expect(renderKeywordInsights({ ...view, granularity: 'DAY', data: { related_keywords: [], tweet_volume: [12] } })).toContain('  2026-06-01 22:00     12\n');
  });
});

describe('adsctl insights keywords through main', () => {
  async function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const io: Io = { out: (t) => void (out += t), err: (t) => void (err += t), env, interactive: false, stdoutTty: false, readLine: async () => undefined, clock: testClock };
    const code = await main(args, io);
    return { code, out, err };
  }

  it.each([
    [['insights', 'keywords', 'a', 'b', 'c', 'd', 'e', 'f', '--negative', 'g', 'h', 'i', 'j', 'k'], /^Error: 11 keywords and negative keywords \(6 \+ 5\): the service takes at most 10 together\n$/],
    [['insights', 'keywords', 'a', '--start', '2026-01-01', '--end', '2026-01-09'], /^Error: the window 2026-01-01T00:00:00Z to 2026-01-09T00:00:00Z is 8d long: the service takes at most 7 days \(set --start or --end\)\n$/],
    [['insights', 'keywords', 'a', '--granularity', 'WEEK'], /^Error: --granularity must be DAY or HOUR, not "WEEK"\n$/],
  ])('%j is one line and exit 1, before the endpoint is opened', async (args, line) => {
    const result = await run(args, {});
    expect(result).toMatchObject({ code: 1, out: '' });
    expect(result.err).toMatch(line);
  });

  it('a bad ADSCTL_ENDPOINT is named as the variable, in one line', async () => {
    const result = await run(['insights', 'keywords', 'a'], { ADSCTL_ENDPOINT: 'nowhere' });
    expect(result).toMatchObject({ code: 1, out: '' });
    expect(result.err).toMatch(/^Error: ADSCTL_ENDPOINT\b.*nowhere.*\n$/);
  });
});

describe('adsctl completion bash', () => {
  it.each([
    [['adsctl', 'ins'], ['insights']],
    [['adsctl', 'insights', ''], ['keywords']],
    [['adsctl', 'insights', 'keywords', 'hiking', '--g'], ['--granularity']],
    [['adsctl', 'insights', 'keywords', '--ne'], ['--negative']],
  ])('offers for %j: %j', async (words, offered) => {
    const dir = mkdtempSync(join(tmpdir(), 'adsctl-insights-completion-'));
    try {
      const script = await runCli(['completion', 'bash']);
      expect(script.code, script.stderr).toBe(0);
      writeFileSync(join(dir, 'adsctl.bash'), script.stdout);
      const call = `source ${JSON.stringify(join(dir, 'adsctl.bash'))}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})\nCOMP_CWORD=${words.length - 1}\n_adsctl\nprintf '%s\\n' "\${COMPREPLY[@]}"`;
      const run = spawnSync('bash', ['--norc', '--noprofile', '-c', call], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.split('\n').filter((w) => w !== '')).toEqual(offered);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
