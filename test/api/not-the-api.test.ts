/**
 * How the client tells an answer of something that is not the advertising API from the API's own
 * errors: a web page or JSON without the API's `errors` is `NOT_THE_API` (status 0, so no caller
 * reads its 404 as an object that is gone), ending with the hint the client was given; the API's
 * own 404 stays a 404, a 5xx page of a proxy is still retried, and a 401 adds where the
 * credentials came from.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { emulatorEndpoint } from '../../src/api/endpoints.js';
import { ApiError } from '../../src/api/errors.js';

const credentials = { consumerKey: 'k', consumerSecret: 's', token: 't', tokenSecret: 'ts' };

interface Answer {
  status: number;
  type: string;
  body: string;
}

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A server answering `answers` in turn (the last one again), and a client of it with hints. */
async function clientOf(...answers: Answer[]): Promise<{ client: ApiClient; base: string; served: () => number }> {
  let count = 0;
  server = createServer((_req, res) => {
    const answer = answers[Math.min(count++, answers.length - 1)]!;
    res.writeHead(answer.status, { 'content-type': answer.type });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const base = `http://127.0.0.1:${address.port}`;
  const client = new ApiClient({
    endpoint: emulatorEndpoint(base, base),
    credentials,
    hints: { endpoint: 'check ADSCTL_ENDPOINT', unauthorized: 'the credentials came from the environment' },
    sleep: async () => {},
  });
  return { client, base, served: () => count };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const get = (client: ApiClient): Promise<unknown> => client.send({ method: 'GET', path: '/12/accounts', endpoint: 'accounts.list' });

describe('an answer that is not the API', () => {
  it.each([
    { name: 'a 404 web page', answer: { status: 404, type: 'text/html', body: '<html>Not Found</html>' }, shape: '404 with an HTML page' },
    { name: 'a 404 without a body', answer: { status: 404, type: 'text/plain', body: '' }, shape: '404 with nothing' },
    { name: 'JSON without the errors', answer: { status: 404, type: 'application/json', body: '{"message":"Not Found"}' }, shape: "404 with JSON that is not the API's" },
    { name: 'a 200 web page', answer: { status: 200, type: 'text/html', body: '<!doctype html><p>hello</p>' }, shape: '200 with an HTML page' },
    { name: 'a 403 text', answer: { status: 403, type: 'text/plain', body: 'Forbidden' }, shape: '403 with a text/plain body' },
  ])('$name: NOT_THE_API, naming the host and the hint', async ({ answer, shape }) => {
    const { client, base } = await clientOf(answer);
    const error = await failure(get(client));
    expect(error.code).toBe('NOT_THE_API');
    expect(error.status).toBe(0);
    expect(error.describe()).toBe(`GET /12/accounts: no response from the advertising API: ${base} answered ${shape}, so it is not the API; check ADSCTL_ENDPOINT`);
    await client.close();
  });

  it("the API's own 404 stays a 404", async () => {
    const { client } = await clientOf({ status: 404, type: 'application/json', body: '{"errors":[{"code":"NOT_FOUND","message":"Account not found"}]}' });
    const error = await failure(get(client));
    expect(error.status).toBe(404);
    expect(error.code).toBe('NOT_FOUND');
    await client.close();
  });

  it("a proxy's 503 page is retried, then reported as the 503 it is", async () => {
    const { client, served } = await clientOf({ status: 503, type: 'text/html', body: '<html>Service Unavailable</html>' });
    const error = await failure(get(client));
    expect(error.status).toBe(503);
    expect(served()).toBeGreaterThan(1);
    await client.close();
  });

  it('a 401 of the API adds where the credentials came from', async () => {
    const { client } = await clientOf({ status: 401, type: 'application/json', body: '{"errors":[{"code":"UNAUTHORIZED_ACCESS","message":"This request is not properly authenticated"}]}' });
    const error = await failure(get(client));
    expect(error.describe()).toBe('GET /12/accounts: 401 UNAUTHORIZED_ACCESS: This request is not properly authenticated; the credentials came from the environment');
    await client.close();
  });
});
