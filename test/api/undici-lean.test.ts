import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { Agent, errors, requestOn } from '../../src/api/undici-lean.js';

describe('undici loaded in parts', () => {
  it('gives the same agent and error classes as the package', () => {
    expect(Agent).toBe(undici.Agent);
    expect(errors).toBe(undici.errors);
    expect(errors.UndiciError).toBe(undici.errors.UndiciError);
  });

  it('sends a request through the agent with the path and query of the URL', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['x-probe']}`);
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new Agent({ connections: 1 });
    try {
      const { port } = server.address() as AddressInfo;
      const res = await requestOn(agent, new URL(`http://127.0.0.1:${port}/ads-api/12/accounts?count=2&cursor=a%20b`), { method: 'GET', headers: { 'x-probe': 'yes' } });
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ ok: true });
      expect(seen).toEqual(['GET /ads-api/12/accounts?count=2&cursor=a%20b yes']);
    } finally {
      await agent.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
