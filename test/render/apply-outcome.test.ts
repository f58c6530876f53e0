/**
 * What apply and destroy say when they end: Terraform's `... complete!` lines only when every
 * operation succeeded, and otherwise every error with its address and a `... failed:` line; when a
 * signal stopped them, what was sent, refused, skipped and not started, and whether anything is
 * left to do.
 */
import { describe, expect, it } from 'vitest';
import { renderApplyOutcome, renderDestroyOutcome, renderInterrupted, type ApplyOutcome } from '../../src/render/apply-outcome.js';

const ok = (added: number, changed: number, destroyed: number): ApplyOutcome => ({ added, changed, destroyed, errors: [] });
const error = (address: string, message: string) => ({ address, message });

describe('renderApplyOutcome', () => {
  it.each<[string, ApplyOutcome, string]>([
    ['every operation succeeded', ok(3, 1, 0), 'Apply complete! Resources: 3 added, 1 changed, 0 destroyed.'],
    ['nothing to do', ok(0, 0, 0), 'Apply complete! Resources: 0 added, 0 changed, 0 destroyed.'],
    [
      'one operation failed',
      { ...ok(2, 0, 0), errors: [error('campaigns.a.line_items.bad', 'POST /12/batch/accounts/1/line_items: 400 MISSING_PARAMETER: "primary_web_event_tag" is a required parameter')] },
      'Error: campaigns.a.line_items.bad: POST /12/batch/accounts/1/line_items: 400 MISSING_PARAMETER: "primary_web_event_tag" is a required parameter\n\nApply failed: 1 error; 2 added, 0 changed, 0 destroyed.',
    ],
    [
      'several failed, nothing succeeded',
      { ...ok(0, 0, 0), errors: [error('account', 'no id'), error('campaigns.b', 'skipped: its parent failed')] },
      'Error: account: no id\n\nError: campaigns.b: skipped: its parent failed\n\nApply failed: 2 errors; 0 added, 0 changed, 0 destroyed.',
    ],
  ])('%s', (_name, result, expected) => {
    expect(renderApplyOutcome(result)).toBe(expected);
  });
});

describe('renderDestroyOutcome', () => {
  it.each<[string, ApplyOutcome, string]>([
    ['every deletion succeeded', ok(0, 0, 7), 'Destroy complete! Resources: 7 destroyed.'],
    ['one deletion failed', { ...ok(0, 0, 6), errors: [error('campaigns.c', '404 NOT_FOUND')] }, 'Error: campaigns.c: 404 NOT_FOUND\n\nDestroy failed: 1 error; 6 destroyed.'],
    ['two deletions failed', { ...ok(0, 0, 0), errors: [error('campaigns.c', 'x'), error('campaigns.d', 'y')] }, 'Error: campaigns.c: x\n\nError: campaigns.d: y\n\nDestroy failed: 2 errors; 0 destroyed.'],
  ])('%s', (_name, result, expected) => {
    expect(renderDestroyOutcome(result)).toBe(expected);
  });

  it('never says complete when anything failed', () => {
    const failed = { ...ok(5, 5, 5), errors: [error('campaigns.a', 'm')] };
    expect(renderApplyOutcome(failed)).not.toContain('complete!');
    expect(renderDestroyOutcome(failed)).not.toContain('complete!');
  });
});

describe('renderInterrupted', () => {
  const counts = (sent: number, applied: number, refused: number, skipped: number, notStarted: number, errors = refused + skipped) => ({
    sent,
    applied,
    refused,
    skipped,
    notStarted,
    errors: Array.from({ length: errors }, (_, i) => error(`campaigns.c${i}`, 'x')),
  });
  it.each<[string, ReturnType<typeof counts>, 'apply' | 'destroy', string]>([
    ['writes left', counts(40, 40, 0, 0, 15), 'apply', 'Interrupted: 40 operations sent (40 applied), 15 not started; run adsctl apply again to finish.'],
    ['writes left, some refused and skipped', counts(40, 38, 2, 3, 12), 'apply', 'Interrupted: 40 operations sent (38 applied, 2 refused), 3 skipped, 12 not started; run adsctl apply again to finish.'],
    ['one sent, to be sent again when stopped', counts(3, 2, 0, 0, 0, 0), 'destroy', 'Interrupted: 3 operations sent (2 applied, 1 to send again), 0 not started; run adsctl destroy again to finish.'],
    ['nothing sent', counts(0, 0, 0, 0, 9), 'apply', 'Interrupted: 0 operations sent (0 applied), 9 not started; run adsctl apply again to finish.'],
    ['every write sent and applied', counts(55, 55, 0, 0, 0), 'apply', 'Interrupted after every write had been sent: 55 operations applied. Nothing is left to apply.'],
    ['one write, sent and applied', counts(1, 1, 0, 0, 0), 'destroy', 'Interrupted after every write had been sent: 1 operation applied. Nothing is left to destroy.'],
    ['every write sent, some refused', counts(50, 47, 3, 2, 0), 'apply', 'Interrupted after every write had been sent: 47 operations applied, 3 refused, 2 skipped. Fix the errors above, then run adsctl apply again.'],
  ])('%s', (_name, result, verb, expected) => {
    expect(renderInterrupted(result, verb)).toBe(expected);
  });

  it('never asks for another run when nothing is left', () => {
    expect(renderInterrupted(counts(7, 7, 0, 0, 0), 'apply')).not.toContain('again');
  });
});
