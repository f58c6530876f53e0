/**
 * When a membership counts as applied: the file's set must hash as the set last applied, and the
 * members last uploaded must be known here (with the store gone, everything is sent again); what a
 * successful sync records leaves nothing to send.
 */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/registry.js';

const rule = KINDS.audience_members.attributes.find((a) => a.field === 'members')!;
const value = (hash: string, count: number, added: number, removed: number) => ({ hash, count, added, removed, unchanged: count - added });

describe('a membership value', () => {
  it.each([
    ['the same set, nothing to send', value('h1', 10, 0, 0), value('h1', 10, 3, 1), true],
    ['another set', value('h2', 10, 2, 2), value('h1', 10, 0, 0), false],
    ['the same set, but the members last uploaded are unknown here (all to send)', value('h1', 10, 10, 0), value('h1', 10, 10, 0), false],
  ])('%s', (_what, desired, applied, same) => {
    expect(rule.equivalent?.(desired, applied, {}) ?? false).toBe(same);
  });

  it('is recorded, once sent, with nothing left to send', () => {
    expect(rule.appliedAs?.(value('h1', 10, 10, 0))).toEqual({ hash: 'h1', count: 10, added: 0, removed: 0, unchanged: 10 });
  });
});
