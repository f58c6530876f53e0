/**
 * Long waits for a rate limit are told once per budget and window (src/cli/wait-notices.ts), with
 * the request, the time it ends and how to avoid it.
 */
import { describe, expect, it } from 'vitest';
import type { WaitNotice } from '../../src/api/client.js';
import type { Io } from '../../src/cli/io.js';
import { waitNotices } from '../../src/cli/wait-notices.js';

const T0 = Date.parse('2026-11-26T18:00:00Z');
const notice = (over: Partial<WaitNotice>): WaitNotice => ({ request: 'GET /12/line_items/placements', write: false, global: true, ms: 600_000, until: T0 + 600_000, ...over });

function told(notices: WaitNotice[]): string[] {
  const lines: string[] = [];
  const io = { err: (t: string) => void lines.push(t.trimEnd()) } as unknown as Io;
  const tell = waitNotices(io);
  for (const n of notices) tell(n);
  return lines;
}

describe('waitNotices', () => {
  it.each<[string, WaitNotice[], number]>([
    ['one wait is told', [notice({})], 1],
    ['requests waiting for the same window are told once', [notice({}), notice({ ms: 599_000 }), notice({ request: 'GET /12/line_items/placements', until: T0 + 600_500 })], 1],
    ['the next window of the same budget is told again', [notice({}), notice({ until: T0 + 1_500_000 })], 2],
    ['writes and global lookups are different budgets', [notice({}), notice({ global: false, write: true, request: 'POST /12/batch/accounts/a/campaigns' })], 2],
  ])('%s', (_name, notices, lines) => {
    expect(told(notices)).toHaveLength(lines);
  });

  it('says what, until when, and how to avoid it', () => {
    expect(told([notice({ ms: 872_000 })])).toEqual([
      "Waiting 14 min 32 s, until 18:10:00 UTC, for the service's rate limit on GET /12/line_items/placements: the service allows few global lookups per user (5 in 15 minutes for some); adsctl keeps what it read in .adsctl/cache, so keep that directory between runs (in CI, cache it) and the next run reads none of it again. Ctrl-C stops the run.",
    ]);
  });
});
