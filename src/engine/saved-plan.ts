/**
 * A plan saved with `plan --out` (src/plan/plan-file.ts) as the runs use it: written by `plan
 * --out`, read by `show`, and applied by `apply PLANFILE` — held to the guardrails in force where
 * it is applied (each account's root's adsctl.yaml now, not when the plan was made), its accounts
 * opened, and what it touches read again to find what moved since (`staleObjects`).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { hasErrors, type Diagnostic } from '../diag/diagnostic.js';
import { decodePlanFile, encodePlanFile, isPlanFile } from '../plan/plan-file.js';
import type { StaleEntry } from '../plan/stale.js';
import type { Plan } from '../plan/types.js';
import { openAccounts, type AccountEnvironment, type Sessions } from './accounts.js';
import { guardPlan, readRunGuardrails } from './guardrails.js';
import type { RunOptions } from './run-options.js';
import { staleObjects } from './stale.js';

/** Writes `plan`, made at `now`, to `file` for a later `apply FILE`; its roots are recorded relative to the file too. */
export function savePlan(file: string, plan: Plan, now: Date): void {
  writeFileSync(file, encodePlanFile(plan, now, dirname(resolve(file))));
}

/** The saved plan at `path` (`show`), or the one-line reason it cannot be read as one. */
export function readSavedPlan(path: string): Plan | string {
  if (!existsSync(path)) return 'no such file';
  if (!statSync(path).isFile()) return 'not a file';
  return decodePlanFile(readFileSync(path, 'utf8'));
}

/** The text at `path` when it is a saved plan; undefined for anything else (manifests, a directory, nothing). */
export function savedPlanText(path: string): string | undefined {
  if (!existsSync(path) || !statSync(path).isFile()) return undefined;
  const text = readFileSync(path, 'utf8');
  return isPlanFile(text) ? text : undefined;
}

/** A saved plan's text as a plan to apply, or the one-line reason it cannot be applied. */
export function planToApply(text: string): Plan | string {
  const plan = decodePlanFile(text);
  if (typeof plan === 'string') return plan;
  return hasErrors(plan.diagnostics) ? 'the saved plan has errors and cannot be applied' : plan;
}

/**
 * Holds `plan` to the guardrails of `roots` (its accounts' roots where it is applied, in the
 * plan's order; undefined accepts any account), with the rules lifted when it was made and by
 * `allow`, and records the outcome in it (`guardPlan`). Returns the problems of reading the
 * guardrails, with the source texts that show them; none when it was checked.
 */
export function guardSavedPlan(plan: Plan, roots: ReadonlyArray<string | undefined>, allow: readonly string[] | undefined, now: Date): { diagnostics: Diagnostic[]; sources: Map<string, string> } {
  const sources = new Map<string, string>();
  const rootOf = new Map(plan.accounts.map((a, i) => [a.account, roots[i]]));
  const read = readRunGuardrails(new Map(roots.flatMap((r) => (r === undefined ? [] : [[r, undefined] as const]))), [...(plan.allowed ?? []), ...(allow ?? [])], sources);
  if (read.diagnostics.length > 0) return { diagnostics: read.diagnostics, sources };
  guardPlan(plan, read.guardrails, now, (a) => rootOf.get(a.account));
  return { diagnostics: [], sources };
}

/**
 * Opens the accounts of a saved plan (their state under `roots`, in the plan's order) for its
 * apply, and finds what moved since the plan was made. On a problem opening them, the
 * diagnostics and nothing held; else the sessions, which the caller closes, and the stale
 * entries (none when the plan can be applied).
 */
export async function openSavedPlan(plan: Plan, roots: readonly string[], env: AccountEnvironment, options: RunOptions): Promise<{ diagnostics: Diagnostic[] } | { sessions: Sessions; stale: StaleEntry[] }> {
  const sessions = await openAccounts(
    plan.accounts.map((a, i) => ({ key: a.account, root: roots[i]!, endpoint: a.endpoint, objects: a.changes.length, ...(a.accountId === undefined ? {} : { accountId: a.accountId }) })),
    env,
    options,
    'apply',
  );
  if (sessions.diagnostics.length > 0) return { diagnostics: sessions.diagnostics };
  try {
    return { sessions, stale: await staleObjects(plan, sessions.sessions) };
  } catch (error) {
    await sessions.close();
    throw error;
  }
}
