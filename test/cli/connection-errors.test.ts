/**
 * Issue 9, point 7, in the API client: a refused connection is retried only within the connect
 * timeout, measured on an injected clock (sleeps advance it, nothing waits for real), and ends
 * in one `unsent` error naming the endpoint — for a create too, since nothing reached the service.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { emulatorEndpoint } from '../../src/api/endpoints.js';
import { ApiError } from '../../src/api/errors.js';

const credentials = { consumerKey: 'k', consumerSecret: 's', token: 't', tokenSecret: 'ts' };

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A client of a closed port whose clock moves only when it sleeps. */
function clientOf(port: number, connectTimeoutMs: number | undefined, endpointTimeoutMs?: number): { client: ApiClient; slept: number[] } {
  let now = 1_000_000;
  const slept: number[] = [];
  const endpoint = { ...emulatorEndpoint(`http://127.0.0.1:${port}`, `http://127.0.0.1:${port}`), ...(endpointTimeoutMs === undefined ? {} : { connectTimeoutMs: endpointTimeoutMs }) };
  const client = new ApiClient({
    endpoint,
    credentials,
    ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
    random: () => 0.5,
  });
  return { client, slept };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('a refused connection', () => {
  it.each([
    { name: 'the client option', option: 2_000, endpoint: undefined, bound: 2_000 },
    { name: "the endpoint's --connect-timeout", option: undefined, endpoint: 3_500, bound: 3_500 },
    { name: 'the default of 10 s', option: undefined, endpoint: undefined, bound: 10_000 },
  ])('is retried within $name, then one unsent error naming the endpoint', async ({ option, endpoint, bound }) => {
    const port = await closedPort();
    const { client, slept } = clientOf(port, option, endpoint);
    const error = await failure(client.send({ method: 'GET', path: '/12/accounts', endpoint: 'accounts.list' }));
    expect(error.outcome).toBe('unsent');
    expect(error.describe()).toBe(`GET /12/accounts: no response from http://127.0.0.1:${port}: connection refused; gave up after ${bound / 1000} s (--connect-timeout)`);
    expect(slept.reduce((a, b) => a + b, 0)).toBe(bound);
    expect(client.counts.attempts).toBe(slept.length + 1);
    await client.close();
  });

  it('is given up after one attempt with a connect timeout of 0', async () => {
    const port = await closedPort();
    const { client, slept } = clientOf(port, 0);
    const error = await failure(client.send({ method: 'GET', path: '/12/accounts', endpoint: 'accounts.list' }));
    expect(error.outcome).toBe('unsent');
    expect(slept).toEqual([]);
    expect(client.counts.attempts).toBe(1);
    await client.close();
  });

  it('of a create is retried too and reported unsent, not as a write that may have happened', async () => {
    const port = await closedPort();
    const { client } = clientOf(port, 1_000);
    const error = await failure(client.send({ method: 'POST', path: '/12/accounts/a/campaigns', endpoint: 'campaign.create', params: { name: 'x' } }));
    expect(error.outcome).toBe('unsent');
    expect(client.counts.attempts).toBeGreaterThan(1);
    await client.close();
  });

  it('of a closed client fails at once', async () => {
    const port = await closedPort();
    const { client, slept } = clientOf(port, 5_000);
    await client.close();
    const error = await failure(client.send({ method: 'GET', path: '/12/accounts', endpoint: 'accounts.list' }));
    expect(error.message).toContain('the client was closed');
    expect(slept).toEqual([]);
  });
});
