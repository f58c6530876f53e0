/**
 * Issue 9, point 10: an apply's progress where stdout is not a terminal (a CI log) is one line
 * per step naming the time elapsed and the addresses it writes.
 * The clock is injected; the plan gives the addresses of each step, in the order apply runs them.
 */
import { describe, expect, it } from 'vitest';
import type { ApplyEvent } from '../../src/apply/events.js';
import type { Io } from '../../src/cli/io.js';
import { formatElapsed, progressPrinter } from '../../src/cli/progress.js';
import type { Operation, Plan, Step } from '../../src/plan/types.js';
import { testClock } from '../support/test-clock.js';

const op = (address: string, action: Operation['action'], kind: Operation['kind']): Operation => ({ key: `${action} ${address}`, address, kind, action, params: {}, after: [] });

const step = (kind: Operation['kind'], action: Operation['action'], addresses: string[]): Step => ({ type: 'batch', kind, action, limit: 40, operations: addresses.map((a) => op(a, action, kind)) });

const campaigns = Array.from({ length: 12 }, (_, i) => `campaigns.c${String(i).padStart(2, '0')}`);

const plan = {
  formatVersion: '2.1',
  mode: 'plan',
  diagnostics: [],
  accounts: [
    {
      account: 'acct',
      endpoint: 'local',
      changes: [],
      layers: [[step('campaign', 'create', campaigns)], [step('line_item', 'update', ['campaigns.c00.line_items.us']), step('campaign', 'delete', ['campaigns.old'])]],
      requests: { reads: 1, writes: 3, batches: 3 },
      spend: [],
      fingerprints: {},
      implied: [],
      stateSerial: 1,
      serving: [],
    },
  ],
} as unknown as Plan;

/**
 * What the printer writes for `events`; events at the same time are emitted in one turn of the
 * event loop, as apply emits the steps of a layer, and the loop turns between times.
 */
async function printed(events: Array<[number, ApplyEvent]>, withPlan: boolean, applied: Plan = plan): Promise<string> {
  let err = '';
  let now = 5_000;
  const io = { out: () => {}, err: (t: string) => void (err += t), env: {}, interactive: false, stdoutTty: false, readLine: async () => undefined, clock: testClock } as Io;
  const print = progressPrinter(io, false, { now: () => now, ...(withPlan ? { plan: applied } : {}) });
  for (const [at, event] of events) {
    if (5_000 + at !== now) await new Promise((resolve) => setImmediate(resolve));
    now = 5_000 + at;
    print(event);
  }
  await new Promise((resolve) => setImmediate(resolve));
  return err;
}

const EVENTS: Array<[number, ApplyEvent]> = [
  [0, { type: 'start', account: 'acct', operations: 14 }],
  [10, { type: 'step', account: 'acct', kind: 'campaign', action: 'create', operations: 12 }],
  [1_250, { type: 'progress', account: 'acct', done: 12, total: 14 }],
  [1_300, { type: 'step', account: 'acct', kind: 'line_item', action: 'update', operations: 1 }],
  [1_300, { type: 'step', account: 'acct', kind: 'campaign', action: 'delete', operations: 1 }],
  [2_000, { type: 'failed', account: 'acct', address: 'campaigns.old', message: 'DELETE /12/x: 400 NOPE' }],
  [2_100, { type: 'progress', account: 'acct', done: 14, total: 14 }],
];

describe('progress without a terminal', () => {
  it('names the elapsed time and the addresses of every step', async () => {
    expect(await printed(EVENTS, true)).toBe(
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

  it('still names the elapsed time without the plan', async () => {
    expect(await printed(EVENTS.slice(0, 5), false)).toBe('[0.0s] acct: create 12 campaigns\n[1.3s] acct: update 1 line item\n[1.3s] acct: delete 1 campaign\n');
  });
});

/** Sixty line items of one layer, each with one promoted post: sixty steps that start together. */
const posts = Array.from({ length: 60 }, (_, i) => `campaigns.c.line_items.l${String(i).padStart(2, '0')}.promoted_posts["${1000 + i}"]`);
const postsPlan = {
  ...plan,
  accounts: [{ ...plan.accounts[0]!, layers: [posts.map((a) => step('promoted_post', 'create', [a])), [step('campaign', 'update', ['campaigns.c'])]] }],
} as Plan;
const postStep = (): ApplyEvent => ({ type: 'step', account: 'acct', kind: 'promoted_post', action: 'create', operations: 1 });

describe('identical steps that start together', () => {
  const rows: Array<{ name: string; events: Array<[number, ApplyEvent]>; withPlan: boolean; lines: string[] }> = [
    {
      name: 'share one line with the sum of their operations',
      events: [...posts.map((): [number, ApplyEvent] => [100, postStep()]), [900, { type: 'step', account: 'acct', kind: 'campaign', action: 'update', operations: 1 }]],
      withPlan: true,
      lines: ['[0.1s] acct: create 60 promoted posts', `    ${posts.slice(0, 10).join(', ')} and 50 more`, '[0.9s] acct: update 1 campaign', '    campaigns.c'],
    },
    {
      name: 'without the plan, still one line',
      events: posts.map((): [number, ApplyEvent] => [100, postStep()]),
      withPlan: false,
      lines: ['[0.1s] acct: create 60 promoted posts'],
    },
    {
      name: 'a failure between them ends the line, and is shown',
      events: [
        [100, postStep()],
        [100, postStep()],
        [100, { type: 'failed', account: 'acct', address: posts[1]!, message: 'POST /12/x: 400 NOPE' }],
        [100, postStep()],
      ],
      withPlan: true,
      lines: ['[0.1s] acct: create 2 promoted posts', `    ${posts[0]}, ${posts[1]}`, `[0.1s] acct: ${posts[1]} failed; the error follows at the end`, '[0.1s] acct: create 1 promoted post', `    ${posts[2]}`],
    },
    {
      name: 'steps that start at different times keep their own lines',
      events: [
        [100, postStep()],
        [200, postStep()],
      ],
      withPlan: false,
      lines: ['[0.1s] acct: create 1 promoted post', '[0.2s] acct: create 1 promoted post'],
    },
    {
      name: 'steps of another account are not folded in',
      events: [
        [100, postStep()],
        [100, { type: 'step', account: 'other', kind: 'promoted_post', action: 'create', operations: 1 }],
        [100, postStep()],
      ],
      withPlan: false,
      lines: ['[0.1s] acct: create 1 promoted post', '[0.1s] other: create 1 promoted post', '[0.1s] acct: create 1 promoted post'],
    },
  ];
  it.each(rows)('$name', async ({ events, withPlan, lines }) => {
    expect(await printed(events, withPlan, postsPlan)).toBe(`${lines.join('\n')}\n`);
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
