/**
 * Issue 9, point 10: an apply's progress where stdout is not a terminal (a CI log) is one line
 * per write request as it goes out, naming the time elapsed and the addresses it carries; requests
 * of one kind and action that go out within a second of the first share a line.
 * The clock is injected; the events name the addresses of each request, as apply sends them.
 */
import { describe, expect, it } from 'vitest';
import type { ApplyEvent } from '../../src/apply/events.js';
import type { Io } from '../../src/cli/io.js';
import { formatElapsed, progressPrinter } from '../../src/cli/progress.js';
import type { Plan } from '../../src/plan/types.js';
import { testClock } from '../support/test-clock.js';

const campaigns = Array.from({ length: 12 }, (_, i) => `campaigns.c${String(i).padStart(2, '0')}`);

/** A plan of one account, or of two (then every line names its account). */
const planOf = (accounts: string[]): Plan => ({ formatVersion: '2.1', mode: 'plan', diagnostics: [], accounts: accounts.map((account) => ({ account, layers: [] })) }) as unknown as Plan;

/**
 * What the printer writes for `events`, each at its time (ms after the start), then flushed as
 * the command flushes it when the apply ends; the event loop turns between events.
 */
async function printed(events: Array<[number, ApplyEvent]>, plan: Plan = planOf(['acct'])): Promise<string> {
  let err = '';
  let now = 5_000;
  const io = { out: () => {}, err: (t: string) => void (err += t), env: {}, interactive: false, stdoutTty: false, readLine: async () => undefined, clock: testClock } as Io;
  const print = progressPrinter(io, false, { now: () => now, plan });
  for (const [at, event] of events) {
    await new Promise((resolve) => setImmediate(resolve));
    now = 5_000 + at;
    print(event);
  }
  print.flush();
  return err;
}

const sending = (kind: string, action: string, addresses: string[], account = 'acct'): ApplyEvent => ({ type: 'sending', account, kind, action, addresses });

const EVENTS: Array<[number, ApplyEvent]> = [
  [0, { type: 'start', account: 'acct', operations: 14 }],
  [10, sending('campaign', 'create', campaigns)],
  [1_250, { type: 'progress', account: 'acct', done: 12, total: 14 }],
  [1_300, sending('line_item', 'update', ['campaigns.c00.line_items.us'])],
  [1_300, sending('campaign', 'delete', ['campaigns.old'])],
  [2_000, { type: 'failed', account: 'acct', address: 'campaigns.old', message: 'DELETE /12/x: 400 NOPE' }],
  [2_100, { type: 'progress', account: 'acct', done: 14, total: 14 }],
];

describe('progress without a terminal', () => {
  it('names the elapsed time and the addresses of every request sent', async () => {
    expect(await printed(EVENTS)).toBe(
      [
        '[0.0s] acct: create 12 campaigns',
        '    campaigns.c00, campaigns.c01, campaigns.c02, campaigns.c03, campaigns.c04, campaigns.c05, campaigns.c06, campaigns.c07, campaigns.c08, campaigns.c09 and 2 more',
        '[1.3s] acct: update 1 line item',
        '    campaigns.c00.line_items.us',
        '[1.3s] acct: delete 1 campaign',
        '    campaigns.old',
        '[2.0s] acct: campaigns.old failed; the error follows at the end',
        '',
      ].join('\n'),
    );
  });

  it('prints nothing for a step whose operations are skipped, only the skips', async () => {
    const skipped: Array<[number, ApplyEvent]> = [
      [0, sending('line_item', 'create', ['campaigns.c.line_items.a'])],
      [100, { type: 'failed', account: 'acct', address: 'campaigns.c.line_items.a', message: 'POST /12/x: 400 NOPE' }],
      [200, { type: 'skipped', account: 'acct', address: 'campaigns.c.line_items.a.targeting["AGE:AGE_18_TO_24"]', because: 'campaigns.c.line_items.a was not created' }],
    ];
    expect(await printed(skipped)).toBe(
      [
        '[0.0s] acct: create 1 line item',
        '    campaigns.c.line_items.a',
        '[0.1s] acct: campaigns.c.line_items.a failed; the error follows at the end',
        'Skipped: campaigns.c.line_items.a.targeting["AGE:AGE_18_TO_24"]: campaigns.c.line_items.a was not created',
        '',
      ].join('\n'),
    );
  });
});

/** Sixty line items of one layer, each with one promoted post: sixty requests. */
const posts = Array.from({ length: 60 }, (_, i) => `campaigns.c.line_items.l${String(i).padStart(2, '0')}.promoted_posts["${1000 + i}"]`);
const postSent = (i: number, account = 'acct'): ApplyEvent => sending('promoted_post', 'create', [posts[i]!], account);

describe('requests of one kind and action', () => {
  const rows: Array<{ name: string; events: Array<[number, ApplyEvent]>; plan?: Plan; lines: string[] }> = [
    {
      name: 'sent within a second share one line with the sum of their operations',
      events: [...posts.map((_, i): [number, ApplyEvent] => [100 + i * 10, postSent(i)]), [900, sending('campaign', 'update', ['campaigns.c'])]],
      lines: ['[0.1s] acct: create 60 promoted posts', `    ${posts.slice(0, 10).join(', ')} and 50 more`, '[0.9s] acct: update 1 campaign', '    campaigns.c'],
    },
    {
      name: 'a failure between them ends the line, and is shown',
      events: [
        [100, postSent(0)],
        [100, postSent(1)],
        [100, { type: 'failed', account: 'acct', address: posts[1]!, message: 'POST /12/x: 400 NOPE' }],
        [100, postSent(2)],
      ],
      lines: ['[0.1s] acct: create 2 promoted posts', `    ${posts[0]}, ${posts[1]}`, `[0.1s] acct: ${posts[1]} failed; the error follows at the end`, '[0.1s] acct: create 1 promoted post', `    ${posts[2]}`],
    },
    {
      name: 'sent more than a second after the first start a line of their own',
      events: [
        [100, postSent(0)],
        [1_200, postSent(1)],
      ],
      lines: ['[0.1s] acct: create 1 promoted post', `    ${posts[0]}`, '[1.2s] acct: create 1 promoted post', `    ${posts[1]}`],
    },
    {
      name: 'of another account are not folded in',
      events: [
        [100, postSent(0)],
        [100, postSent(1, 'other')],
        [100, postSent(2)],
      ],
      plan: planOf(['acct', 'other']),
      lines: ['[0.1s] acct: create 1 promoted post', `    ${posts[0]}`, '[0.1s] other: create 1 promoted post', `    ${posts[1]}`, '[0.1s] acct: create 1 promoted post', `    ${posts[2]}`],
    },
  ];
  it.each(rows)('$name', async ({ events, plan, lines }) => {
    expect(await printed(events, plan)).toBe(`${lines.join('\n')}\n`);
  });

  it('are printed within a second of the first, though nothing else happens', async () => {
    let err = '';
    const io = { out: () => {}, err: (t: string) => void (err += t), env: {}, interactive: false, stdoutTty: false, readLine: async () => undefined, clock: testClock } as Io;
    const print = progressPrinter(io, false);
    print(postSent(0));
    expect(err).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(err).toBe(`${err.slice(0, err.indexOf(']') + 1)} acct: create 1 promoted post\n    ${posts[0]}\n`);
  });
});

describe('formatElapsed', () => {
  it.each([
    [0, '0.0s'],
    [940, '0.9s'],
    [59_949, '59.9s'],
    [60_000, '1m00s'],
    [3_725_000, '62m05s'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatElapsed(ms)).toBe(text);
  });
});
