/**
 * What `adsctl validate` checks beyond loading the manifests, offline: the headers of the member
 * files they name and the guardrails of their configuration roots, either of which would stop
 * every plan.
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import type { DesiredAccount } from '../manifest/types.js';
import { checkMemberHeaders } from '../members/headers.js';
import { readRunGuardrails } from './guardrails.js';

/**
 * The problems of `accounts`' member file headers, then those of the guardrails of `roots` (each
 * with the account ids its manifests give); the texts of guardrails files with errors are added
 * to `sources`.
 */
export async function checkAccounts(accounts: readonly DesiredAccount[], roots: ReadonlyMap<string, ReadonlySet<string>>, sources: Map<string, string>): Promise<Diagnostic[]> {
  const guardrails = readRunGuardrails(roots, undefined, sources).diagnostics;
  const headers = await checkMemberHeaders(accounts);
  return [...headers, ...guardrails];
}
