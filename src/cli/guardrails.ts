/**
 * The command's side of guardrails (docs/manifest.md, "Guardrails"): the `guardrails:` block of
 * each configuration root's adsctl.yaml, read before anything is sent, with `--allow`; what the
 * engine checks plans against (src/engine/guardrails.ts).
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import type { RunGuardrails } from '../engine/guardrails.js';
import { readGuardrails } from '../guardrails/config.js';
import type { GuardrailsConfig } from '../guardrails/policy.js';
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

/**
 * The guardrails of `roots` (each with the account ids its manifests give, or undefined to
 * accept any: a saved plan names only the accounts it changes). The texts of the files with
 * errors are added to `sources`, so their diagnostics show the line at fault.
 */
export function readRunGuardrails(roots: ReadonlyMap<string, ReadonlySet<string> | undefined>, allow: readonly string[] | undefined, sources: Map<string, string>): { guardrails: RunGuardrails; diagnostics: Diagnostic[] } {
  const configs = new Map<string, GuardrailsConfig>();
  const diagnostics: Diagnostic[] = [];
  for (const [root, accounts] of [...roots].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const read = readGuardrails(root, accounts);
    // the file's text shows the line of a guardrails error; other errors about adsctl.yaml (a
    // state backend out of reach) stay the one line they are
    if (read.source !== undefined && read.diagnostics.length > 0) sources.set(read.source.file, read.source.text);
    diagnostics.push(...read.diagnostics);
    if (read.config !== undefined) configs.set(root, read.config);
  }
  return { guardrails: { configs, allowed: allow ?? [] }, diagnostics };
}
