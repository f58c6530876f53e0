/**
 * The plan's check of times the service takes only in the future (src/plan/rules.ts): a scheduled
 * post's `scheduled_at` that a write would send at or before the time of the plan is an error
 * `time-past` naming the address and the value; a time after it, a time the write does not send
 * (an update of other fields), and a plan given no time are not checked.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import type { LiveAccount } from '../../src/live/types.js';
import { checkRules } from '../../src/plan/rules.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const LIVE: LiveAccount = { account: 'a', accountId: '18ce54d4x5t', currencies: {}, resources: new Map(), missing: new Set() };

/** A change of scheduled post `launch`: a create with `after`, or an update of `changed` from `before`. */
function change(action: 'create' | 'update', after: Record<string, unknown>, changed: Record<string, unknown> = {}): ResourceChange {
  return {
    account: 'a',
    address: { kind: 'scheduled_post', steps: [{ collection: 'scheduled_posts', key: 'launch' }] } as unknown as ResourceChange['address'],
    kind: 'scheduled_post',
    action,
    ...(action === 'update' ? { id: '1' } : {}),
    before: action === 'update' ? { text: 'old', scheduled_at: '2026-12-04T17:00:00Z' } : null,
    after,
    changes: Object.entries(changed).map(([path, value]) => ({ path, before: undefined, after: value, origin: 'manifest' as const, forcesReplacement: false })),
    drift: false,
    protected: false,
  };
}

describe('times the service takes only in the future', () => {
  const rows: Array<{ name: string; change: ResourceChange; now?: Date; errors: string[] }> = [
    { name: 'a create a day before the plan', change: change('create', { text: 't', scheduled_at: '2026-11-22T12:00:00Z' }), now: NOW, errors: ['time-past: scheduled_posts.launch: scheduled_at 2026-11-22T12:00:00Z is not in the future (it is 2026-11-23T12:00:00Z), and the service takes only a later time; move it later'] },
    { name: 'a create at the very time of the plan', change: change('create', { text: 't', scheduled_at: '2026-11-23T12:00:00Z' }), now: NOW, errors: ['time-past'] },
    { name: 'a create a second after the plan', change: change('create', { text: 't', scheduled_at: '2026-11-23T12:00:01Z' }), now: NOW, errors: [] },
    { name: 'an update moving it into the past', change: change('update', { scheduled_at: '2026-11-01T00:00:00Z' }, { scheduled_at: '2026-11-01T00:00:00Z' }), now: NOW, errors: ['time-past'] },
    { name: 'an update of the text only, the time already past', change: change('update', { text: 'new', scheduled_at: '2026-11-01T00:00:00Z' }, { text: 'new' }), now: NOW, errors: [] },
    { name: 'a plan given no time', change: change('create', { text: 't', scheduled_at: '2026-11-22T12:00:00Z' }), errors: [] },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const found = checkRules([row.change], undefined, LIVE, row.now).filter((d) => d.code === 'time-past');
      expect(found.map((d) => (row.errors[0]?.includes(':') === true ? `${d.code}: ${d.message}` : d.code))).toEqual(row.errors);
    });
  }
});
