/**
 * Turning planned values into sendable ones: every `UnknownRef`, at any depth of a value, becomes
 * the id its resource got when it was created earlier in the apply (found in state), in the form
 * the API wants (after the reference's `prefix`: `card://<id>`). A reference to something that
 * does not exist — its create failed or was skipped — is reported by its address.
 */
import { isUnknownRef } from '../diff/types.js';
import type { AccountState } from '../state/state-file.js';

type Resolved = { ok: true; values: Record<string, unknown> } | { ok: false; missing: string };

class Missing {
  constructor(readonly address: string) {}
}

function resolveValue(value: unknown, state: AccountState): unknown {
  if (isUnknownRef(value)) {
    const bound = state.resources[value.$ref];
    if (bound === undefined) throw new Missing(value.$ref);
    return `${value.prefix ?? ''}${bound.id}`;
  }
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, state));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveValue(v, state)]));
  return value;
}

/** Resolves the references in `values` against state bindings. */
export function resolveRefs(values: Readonly<Record<string, unknown>>, state: AccountState): Resolved {
  try {
    return { ok: true, values: resolveValue(values, state) as Record<string, unknown> };
  } catch (error) {
    if (error instanceof Missing) return { ok: false, missing: error.address };
    throw error;
  }
}
