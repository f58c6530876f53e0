/**
 * What apply and destroy say when they end: Terraform's `... complete!` lines only when every
 * operation succeeded, and otherwise every error with its address and a `... failed:` line.
 */
import { describe, expect, it } from 'vitest';
import { renderApplyOutcome, renderDestroyOutcome, type ApplyOutcome } from '../../src/render/apply-outcome.js';

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
