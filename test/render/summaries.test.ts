/**
 * Issue 23: the request line counts batches only when there are any ("2 writes planned (0
 * batches)" said nothing), in the singular for one.
 */
import { describe, expect, it } from 'vitest';
import { requestsPhrase } from '../../src/render/summaries.js';

describe('requestsPhrase', () => {
  it.each([
    [{ reads: 0, writes: 0, batches: 0 }, '0 reads made, 0 writes planned'],
    [{ reads: 1, writes: 1, batches: 0 }, '1 read made, 1 write planned'],
    [{ reads: 3, writes: 2, batches: 0 }, '3 reads made, 2 writes planned'],
    [{ reads: 3, writes: 2, batches: 1 }, '3 reads made, 2 writes planned (1 batch)'],
    [{ reads: 7, writes: 4, batches: 2 }, '7 reads made, 4 writes planned (2 batches)'],
  ])('%j is %s', (requests, phrase) => {
    expect(requestsPhrase(requests)).toBe(phrase);
  });
});
