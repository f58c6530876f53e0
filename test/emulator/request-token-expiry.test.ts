/**
 * Request tokens (step 1 of the three-legged flow) expire 15 minutes after they are issued, on the
 * emulator's injected clock: step 2 then shows the "invalid or expired" page and step 3 answers
 * 401 code 89, as for any token the service no longer knows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { consumerOf, fetchRequestToken, parsePairs, pinOf, submitApproval } from '../support/login.js';
import { testNow } from '../support/test-clock.js';

let emulator: RunningEmulator;
let client: TestClient;
let offsetMs = 0;
const clockNow = (): Date => new Date(testNow() + offsetMs);

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ rateLimitScale: 0, clock: { now: clockNow } }));
});
afterAll(() => emulator.close());

const minutes = (m: number): number => m * 60_000;

/** Step 1 now (signed at the emulator's time), then the clock moves by `laterMs`. */
async function issuedThen(laterMs: number): Promise<{ token: string; secret: string }> {
  offsetMs = 0;
  const step1 = await fetchRequestToken(client, 'oob');
  expect(step1.reply.status).toBe(200);
  offsetMs = laterMs;
  return { token: step1.token, secret: step1.secret };
}

const exchange = (token: string, secret: string, pin: string) =>
  client.post('/oauth/access_token', {}, {
    base: 'root',
    creds: { ...consumerOf(client), token, tokenSecret: secret },
    oauth: { oauth_verifier: pin },
    timestamp: Math.floor(clockNow().getTime() / 1000),
  });

describe('request token lifetime', () => {
  const authorizeCases: Array<[string, number, number]> = [
    ['the authorize page within 15 minutes', minutes(14), 200],
    ['the authorize page after 15 minutes', minutes(15) + 5_000, 401],
  ];
  it.each(authorizeCases)('%s', async (_name, later, status) => {
    const { token } = await issuedThen(later);
    const page = await client.get('/oauth/authorize', { oauth_token: token }, { base: 'root', creds: null });
    expect(page.status).toBe(status);
    if (status === 401) expect(page.text).toContain('expired because it is too old');
  });

  const exchangeCases: Array<[string, number, number]> = [
    ['exchanged within 15 minutes', minutes(14), 200],
    ['exchanged after 15 minutes', minutes(16), 401],
  ];
  it.each(exchangeCases)('approved at once, %s', async (_name, later, status) => {
    offsetMs = 0;
    const step1 = await fetchRequestToken(client, 'oob');
    const pin = pinOf((await submitApproval(client, step1.token, 'adsctl_manager')).text);
    expect(pin).toBeDefined();
    offsetMs = later;
    const r = await exchange(step1.token, step1.secret, pin!);
    expect(r.status, r.text).toBe(status);
    if (status === 200) expect(parsePairs(r.text)['screen_name']).toBe('adsctl_manager');
    else expect(JSON.parse(r.text)).toEqual({ errors: [{ code: 89, message: 'Invalid or expired token.' }] });
  });
});
