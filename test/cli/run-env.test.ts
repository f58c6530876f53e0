/** ADSCTL_REQUEST_TIMEOUT (src/cli/run-env.ts, `requestTimeoutFromEnv`): a duration of at least 1 s, or one line saying what is wrong. */
import { describe, expect, it } from 'vitest';
import { requestTimeoutFromEnv } from '../../src/cli/run-env.js';

describe('requestTimeoutFromEnv', () => {
  it.each([
    { value: undefined, want: undefined },
    { value: '', want: undefined },
    { value: '30s', want: 30_000 },
    { value: '2m', want: 120_000 },
    { value: '45', want: 45_000 },
    { value: '1500ms', want: 1_500 },
    { value: 'soon', want: { problem: 'ADSCTL_REQUEST_TIMEOUT: "soon" is not a duration such as 30s or 2m' } },
    { value: '200ms', want: { problem: 'ADSCTL_REQUEST_TIMEOUT: 200ms is shorter than 1 s, which no request to the service can be sure to finish in' } },
  ])('$value', ({ value, want }) => {
    expect(requestTimeoutFromEnv(value === undefined ? {} : { ADSCTL_REQUEST_TIMEOUT: value })).toEqual(want);
  });
});
