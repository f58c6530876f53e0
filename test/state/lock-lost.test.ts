/**
 * What a run says when its state lock was lost (src/state/lock-lost.ts): whose lock and why, what
 * became of the writes, and what to run; a plan, which writes nothing, only runs again.
 */
import { describe, expect, it } from 'vitest';
import { EnvironmentError } from '../../src/diag/environment-error.js';
import { LockLostError, lockLostMessage } from '../../src/state/lock-lost.js';

const WHY = 'the state lock of account acme in postgres://db:5432/ads was lost: the session that held it ended (terminating connection due to administrator command)';

describe('lockLostMessage', () => {
  it.each([
    { verb: 'apply', says: [WHY, 'No write was sent after it', 'looked up on the service by the next run', 'Run adsctl apply again to finish.'] },
    { verb: 'destroy', says: [WHY, 'No write was sent after it', 'Run adsctl destroy again to finish.'] },
    { verb: 'plan', says: [WHY, 'Nothing was written; run adsctl plan again.'] },
  ])('after $verb', ({ verb, says }) => {
    const message = lockLostMessage(WHY, verb);
    for (const part of says) expect(message).toContain(part);
  });

  it('is an error of the environment, never reported as a bug', () => {
    expect(new LockLostError(WHY)).toBeInstanceOf(EnvironmentError);
  });
});
