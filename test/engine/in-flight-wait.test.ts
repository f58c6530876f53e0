/**
 * The wait before reading an account whose former lock holder may still be running
 * (src/engine/accounts.ts, `inFlightWait`; the line it prints, src/state/lock-notices.ts): none
 * without such a holder or without requests it announced and did not see answered; otherwise
 * until its request deadline has passed since it was last seen.
 */
import { describe, expect, it } from 'vitest';
import { inFlightWait } from '../../src/engine/accounts.js';
import { inFlightNotice } from '../../src/state/lock-notices.js';

describe('inFlightWait', () => {
  it.each([
    { name: 'a holder known gone (or a clean release)', mayRun: undefined, open: 3, wait: 0 },
    { name: 'a holder that may run, nothing on the wire', mayRun: { requestTimeoutMs: 60_000, silentMs: 0 }, open: 0, wait: 0 },
    { name: 'a PostgreSQL session that ended just now', mayRun: { requestTimeoutMs: 60_000, silentMs: 0 }, open: 2, wait: 60_000 },
    { name: 'a heartbeat still for 10 s in another pid namespace', mayRun: { requestTimeoutMs: 60_000, silentMs: 10_000 }, open: 1, wait: 50_000 },
    { name: 'a holder silent for longer than its deadline', mayRun: { requestTimeoutMs: 5_000, silentMs: 9_000 }, open: 4, wait: 0 },
  ])('$name: $wait ms', ({ mayRun, open, wait }) => {
    expect(inFlightWait(mayRun === undefined ? {} : { previousMayRun: mayRun }, open)).toBe(wait);
  });

  it('is said in one line: how long, whose writes, and why', () => {
    const line = inFlightNotice('acme', { id: 'l1', holder: 'ci@runner-7', pid: 41, created_at: '', operation: 'apply' }, 3, 49_500, 60_000);
    expect(line).toBe(
      'Waiting 50 s before reading account acme: the run that held its lock (ci@runner-7, pid 41) may still be running, and 3 writes it sent are not known to be answered; ' +
        'a write lands within its 60 s deadline (ADSCTL_REQUEST_TIMEOUT), and what it did is then read and adopted, not made again.\n',
    );
    expect(line.trimEnd().split('\n')).toHaveLength(1);
  });
});
