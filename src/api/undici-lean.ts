/**
 * The parts of undici adsctl uses (the pooling agent, its request API and the error classes),
 * imported on their own. `import 'undici'` loads the whole package (fetch, WebSocket, caches, mocks,
 * proxy agents) at 0.2 s of the 0.7 s of CPU that an `adsctl plan` of a small account takes, paid
 * by every run. The package has no export map, so its modules are imported by path (their types
 * are the package's own, declared in undici-parts.d.ts); the lockfile pins the version, and
 * test/api/undici-lean.test.ts holds these to the package's own exports. Imported, rather than
 * required at run time, they are bundled with the command line (scripts/bundle.mjs).
 */
import type * as Undici from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import undiciErrors from 'undici/lib/core/errors.js';
import api from 'undici/lib/api/index.js';

export const Agent = AgentClass;
export const errors = undiciErrors;

/**
 * `dispatcher.request(options)`: the package's entry adds its request API to every dispatcher's
 * prototype; imported alone, the API is called on the dispatcher instead.
 */
export function requestOn(dispatcher: Undici.Dispatcher, url: URL, options: Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Undici.Dispatcher.ResponseData> {
  return api.request.call(dispatcher, { ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}
