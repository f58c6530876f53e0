/**
 * The parts of undici adsctl uses (the pooling agent, its request API and the error classes),
 * loaded on their own. `import 'undici'` loads the whole package (fetch, WebSocket, caches, mocks,
 * proxy agents) at 0.2 s of the 0.7 s of CPU that an `adsctl plan` of a small account takes, paid
 * by every run. The package has no export map, so its modules load by path; the lockfile pins
 * the version, and test/api/undici-lean.test.ts holds these to the package's own exports.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const load = createRequire(import.meta.url);

export const Agent = load('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const errors = load('undici/lib/core/errors.js') as typeof Undici.errors;

const api = load('undici/lib/api/index.js') as { request: (this: Undici.Dispatcher, options: Undici.Dispatcher.RequestOptions) => Promise<Undici.Dispatcher.ResponseData> };

/**
 * `dispatcher.request(options)`: the package's entry adds its request API to every dispatcher's
 * prototype; loaded alone, the API is called on the dispatcher instead.
 */
export function requestOn(dispatcher: Undici.Dispatcher, url: URL, options: Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Undici.Dispatcher.ResponseData> {
  return api.request.call(dispatcher, { ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}
