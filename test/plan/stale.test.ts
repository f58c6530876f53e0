/**
 * The saved-plan check decided without I/O (src/plan/stale.ts): which objects to re-read, and
 * what moved given the state serials and fingerprints found at apply time; and the refusal
 * `apply PLANFILE` prints (src/cli/stale.ts).
 */
import { describe, expect, it } from 'vitest';
import { staleRefusal } from '../../src/cli/stale.js';
import type { ResourceChange } from '../../src/diff/types.js';
import { fingerprintTargets, staleEntries, type StaleEntry } from '../../src/plan/stale.js';
import type { AccountPlan, Plan } from '../../src/plan/types.js';
import { change } from './builders.js';

const L = 'campaigns.a.line_items.l';

function accountPlan(account: string, stateSerial: number, changes: ResourceChange[], fingerprints: Record<string, string>): AccountPlan {
  return { account, accountId: account, endpoint: 'local', changes, layers: [], requests: { reads: 0, writes: 0, batches: 0 }, spend: [], fingerprints, implied: [], stateSerial, serving: [] };
}

const plan = (accounts: AccountPlan[]): Plan => ({ formatVersion: '1.0', mode: 'plan', accounts, diagnostics: [] });

const acme = accountPlan(
  'acme',
  3,
  [
    change('campaigns.a', 'update', { id: 'c1' }),
    change(L, 'noop', { id: 'l1' }),
    change(`${L}.promoted_posts["9"]`, 'delete', { id: 'p1' }),
    change(`${L}.targeting["BROAD_KEYWORD:x"]`, 'delete', { id: 't1' }),
    change('campaigns.b', 'create'),
    change('campaigns.z', 'update', { id: 'c2' }),
  ],
  { c2: 'fz', p1: 'fp', t1: 'ft', c1: 'fa' },
);
const other = accountPlan('other', 1, [change('campaigns.o', 'delete', { id: 'o1' })], { o1: 'fo' });

describe('fingerprintTargets', () => {
  it('names the objects with a fingerprint by kind, leaving out kinds that are recreated rather than updated', () => {
    expect(Object.fromEntries(fingerprintTargets(acme))).toEqual({ campaign: ['c1', 'c2'], promoted_post: ['p1'] });
  });
});

describe('staleEntries', () => {
  const fresh: Record<string, string> = { c1: 'fa', c2: 'fz', p1: 'fp', o1: 'fo' };
  const rows: Array<{ name: string; serials: Record<string, number>; fingerprints: Record<string, string>; entries: StaleEntry[] }> = [
    { name: 'nothing moved', serials: { acme: 3, other: 1 }, fingerprints: fresh, entries: [] },
    {
      name: 'an object updated',
      serials: { acme: 3, other: 1 },
      fingerprints: { ...fresh, c1: 'fb' },
      entries: [{ kind: 'object', account: 'acme', address: 'campaigns.a', id: 'c1', planned: 'fa', now: 'fb' }],
    },
    {
      name: 'an object deleted',
      serials: { acme: 3, other: 1 },
      fingerprints: { c1: 'fa', c2: 'fz', o1: 'fo' },
      entries: [{ kind: 'object', account: 'acme', address: `${L}.promoted_posts["9"]`, id: 'p1', planned: 'fp', now: undefined }],
    },
    {
      name: 'several objects, by address',
      serials: { acme: 3, other: 1 },
      fingerprints: { c1: 'fb', c2: 'fy', o1: 'fo' },
      entries: [
        { kind: 'object', account: 'acme', address: 'campaigns.a', id: 'c1', planned: 'fa', now: 'fb' },
        { kind: 'object', account: 'acme', address: `${L}.promoted_posts["9"]`, id: 'p1', planned: 'fp', now: undefined },
        { kind: 'object', account: 'acme', address: 'campaigns.z', id: 'c2', planned: 'fz', now: 'fy' },
      ],
    },
    { name: 'a targeting criterion moved or gone: recreated, not updated, so not checked', serials: { acme: 3, other: 1 }, fingerprints: { ...fresh, t1: 'other' }, entries: [] },
    {
      name: 'the state moved: reported alone, its objects not compared',
      serials: { acme: 4, other: 1 },
      fingerprints: { o1: 'fo' },
      entries: [{ kind: 'state', account: 'acme', planned: 3, now: 4 }],
    },
    {
      name: 'both accounts moved, in plan order',
      serials: { acme: 3, other: 2 },
      fingerprints: { ...fresh, c2: 'fy' },
      entries: [
        { kind: 'object', account: 'acme', address: 'campaigns.z', id: 'c2', planned: 'fz', now: 'fy' },
        { kind: 'state', account: 'other', planned: 1, now: 2 },
      ],
    },
    { name: 'an account that was not opened is not checked', serials: { other: 1 }, fingerprints: { o1: 'fo' }, entries: [] },
  ];
  it.each(rows)('$name', ({ serials, fingerprints, entries }) => {
    expect(staleEntries(plan([acme, other]), serials, new Map(Object.entries(fingerprints)))).toEqual(entries);
  });
});

describe('staleRefusal', () => {
  const named = plan([{ ...acme, name: 'Acme Outdoor', accountId: '18ce54d4x5t' }, { ...other, accountId: undefined } as AccountPlan]);
  const rows: Array<{ name: string; entry: StaleEntry; line: string }> = [
    {
      name: 'the state written by another run, the account by name and id',
      entry: { kind: 'state', account: 'acme', planned: 3, now: 4 },
      line: 'the state of account "Acme Outdoor" (18ce54d4x5t) was written by another run since the plan was made (an apply, import or state command; serial 3 then, 4 now)',
    },
    {
      name: 'the state of an account with no name or id yet, by its key',
      entry: { kind: 'state', account: 'other', planned: 1, now: 2 },
      line: 'the state of account other was written by another run since the plan was made (an apply, import or state command; serial 1 then, 2 now)',
    },
    {
      name: 'an object updated later, with when',
      entry: { kind: 'object', account: 'acme', address: 'campaigns.a', id: 'c1', planned: '2026-11-21T14:29:00Z, content 0123456789ab', now: '2026-11-21T14:30:00Z, content e94da24b8ce8' },
      line: 'campaigns.a (id c1) was changed outside adsctl (updated at 2026-11-21T14:30:00Z)',
    },
    {
      name: 'an object changed in the same second, without a time that says nothing',
      entry: { kind: 'object', account: 'acme', address: 'campaigns.a', id: 'c1', planned: '2026-11-21T14:30:00Z, content 0123456789ab', now: '2026-11-21T14:30:00Z, content e94da24b8ce8' },
      line: 'campaigns.a (id c1) was changed outside adsctl',
    },
    {
      name: 'an object whose record has no time',
      entry: { kind: 'object', account: 'acme', address: 'cards.site', id: 'k1', planned: 'content 0123456789ab', now: 'content e94da24b8ce8' },
      line: 'cards.site (id k1) was changed outside adsctl',
    },
    {
      name: 'an object deleted',
      entry: { kind: 'object', account: 'acme', address: `${L}.promoted_posts["9"]`, id: 'p1', planned: 'fp', now: undefined },
      line: `${L}.promoted_posts["9"] (id p1) was deleted outside adsctl`,
    },
  ];
  it.each(rows)('$name', ({ entry, line }) => {
    const text = staleRefusal([entry], named);
    expect(text).toBe(`Error: the saved plan is stale; these changed since it was made:\n  - ${line}\nRun adsctl plan again, review it, and apply the new plan.\n`);
    expect(text).not.toMatch(/content [0-9a-f]{12}/);
  });

  it('names everything that moved, in order', () => {
    const text = staleRefusal(
      [
        { kind: 'state', account: 'other', planned: 1, now: 2 },
        { kind: 'object', account: 'acme', address: 'campaigns.a', id: 'c1', planned: 'fa', now: 'content e94da24b8ce8' },
      ],
      named,
    );
    expect(text.split('\n').filter((l) => l.startsWith('  - '))).toHaveLength(2);
  });
});
