/**
 * Refusals of chosen requests by a running emulator (`/_emulator/refusals`, src/emulator/refusals.ts):
 * a test names a route and parameters, and the emulator refuses the matching requests as the
 * service would, changing nothing.
 */
import { request } from 'undici';
import type { StartupInfo } from '../../src/emulator/emulator.js';
import type { RefusalRule } from '../../src/emulator/refusals.js';

/** A rule as a test writes it: `path` a regular expression over the API path, the rest optional. */
export interface RefusalSpec {
  method?: string;
  path: string;
  match?: Record<string, string | number | boolean>;
  status?: number;
  code?: string;
  message?: string;
  parameter?: string;
  times?: number;
}

async function control(info: StartupInfo, method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<any> {
  const res = await request(`${info.base_url}/_emulator/refusals`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${method} /_emulator/refusals answered ${res.statusCode}: ${text}`);
  return JSON.parse(text);
}

/** Adds a refusal rule; resolves with the rule as the emulator holds it (its `id`, `fired: 0`). */
export function refuse(info: StartupInfo, rule: RefusalSpec): Promise<RefusalRule> {
  return control(info, 'POST', rule);
}

/** Removes every refusal rule. */
export async function clearRefusals(info: StartupInfo): Promise<void> {
  await control(info, 'DELETE');
}

/** Every refusal rule, with how many requests each refused (`fired`). */
export async function listRefusals(info: StartupInfo): Promise<RefusalRule[]> {
  return ((await control(info, 'GET')) as { refusals: RefusalRule[] }).refusals;
}
