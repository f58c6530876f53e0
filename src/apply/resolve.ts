/**
 * Turning planned values into sendable ones: every `UnknownRef` becomes the id its resource got
 * when it was created earlier in the apply (found in state). A reference to something that does
 * not exist — its create failed or was skipped — makes the operation skipped.
 */
import { isUnknownRef } from '../diff/types.js';
import type { AccountState } from '../state/state-file.js';

export type Resolved = { ok: true; values: Record<string, unknown> } | { ok: false; missing: string };

/** Resolves the references in `values` against state bindings. */
export function resolveRefs(values: Readonly<Record<string, unknown>>, state: AccountState): Resolved {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (isUnknownRef(v)) {
      const bound = state.resources[v.$ref];
      if (bound === undefined) return { ok: false, missing: v.$ref };
      out[k] = bound.id;
    } else out[k] = v;
  }
  return { ok: true, values: out };
}
