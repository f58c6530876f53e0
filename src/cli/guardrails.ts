/**
 * The command's side of guardrails (docs/manifest.md, "Guardrails"): the configuration roots
 * whose adsctl.yaml the engine reads the `guardrails:` block of (`readRunGuardrails`,
 * src/engine/guardrails.ts), with the account ids the manifests there give.
 */
import type { DesiredAccount } from '../manifest/types.js';
import { accountLocation } from './root.js';

/** The configuration root of each account loaded from `given`, with the account ids its manifests give. */
export function guardrailRoots(accounts: readonly DesiredAccount[], given: string): Map<string, Set<string>> {
  const roots = new Map<string, Set<string>>();
  for (const desired of accounts) {
    const { root } = accountLocation(desired, given);
    const ids = roots.get(root) ?? new Set<string>();
    if (desired.accountId !== undefined) ids.add(desired.accountId);
    roots.set(root, ids);
  }
  return roots;
}
