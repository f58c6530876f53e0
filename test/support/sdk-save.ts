/**
 * The official Python SDK's update pattern, as it goes over the wire: load an object, change one
 * attribute, `save()`. The SDK sends back every attribute it holds — read-only ones included — as
 * query parameters of a PUT (lists as repeated keys, booleans `true`/`false`, unset attributes
 * left out), signed with OAuth 1.0a; cards, a JSON endpoint, get the whole loaded card as the body.
 * Signed by the independent test signer.
 */
import { request } from 'undici';
import { encodePairs, type Reply, type TestClient } from './client.js';
import { authorizationHeader } from './signer.js';

/** The query pairs the SDK makes of a loaded record: nulls left out, each list item its own pair. */
export function sdkParams(record: Record<string, unknown>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(record)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) pairs.push([name, String(item)]);
    else if (typeof value === 'object') pairs.push([name, JSON.stringify(value)]);
    else pairs.push([name, String(value)]);
  }
  return pairs;
}

/** Sends `PUT path` with `pairs` in the query string (or `json` as the body), signed as `client`. */
export async function sdkPut(client: TestClient, path: string, pairs: Array<[string, string]>, json?: unknown): Promise<Reply> {
  const url = pairs.length === 0 ? client.url(path) : `${client.url(path)}?${encodePairs(pairs)}`;
  const body = json === undefined ? undefined : JSON.stringify(json);
  const headers: Record<string, string> = { authorization: authorizationHeader(client.creds, { method: 'PUT', url }) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(url, { method: 'PUT', headers, ...(body === undefined ? {} : { body }) });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.statusCode, headers: res.headers as Record<string, string>, body: parsed, text };
}

/** Load (GET), change `changes`, save (PUT of everything held): the SDK's documented pattern. */
export async function loadChangeSave(client: TestClient, path: string, changes: Record<string, unknown>, drop: readonly string[] = []): Promise<Reply> {
  const loaded = await client.get(path);
  if (loaded.status !== 200) throw new Error(`load failed (${loaded.status}): ${loaded.text}`);
  const held: Record<string, unknown> = { ...(loaded.body.data as Record<string, unknown>), ...changes };
  for (const name of drop) delete held[name];
  return sdkPut(client, path, sdkParams(held));
}
