/**
 * Saved plans (`plan --out FILE`, `apply FILE`): the plan object itself as JSON, tagged so that
 * any other file is refused, with the time it was made. It holds the fingerprints of every live
 * object it touches and the state serial of every account, so apply can tell precisely whether
 * it went stale. No secrets are in a plan.
 */
import { relative } from 'node:path';
import type { Plan } from './types.js';
import { PLAN_FORMAT_VERSION } from './types.js';

const TAG = 'adsctl-plan';

interface PlanFile {
  format: typeof TAG;
  format_version: string;
  created_at: string;
  plan: Plan;
}

/**
 * The saved form of `plan`. With `planDir` (the directory the file is written to), each account's
 * configuration root is also recorded relative to it, so that the plan applied from another
 * working directory, or another checkout, finds the state beside the manifests.
 */
export function encodePlanFile(plan: Plan, now = new Date(), planDir?: string): string {
  const accounts = plan.accounts.map((a) => (planDir === undefined || a.root === undefined ? a : { ...a, rootFromPlanFile: relative(planDir, a.root) || '.' }));
  const file: PlanFile = { format: TAG, format_version: PLAN_FORMAT_VERSION, created_at: now.toISOString(), plan: { ...plan, accounts } };
  return `${JSON.stringify(file)}\n`;
}

/** True when `text` looks like a saved plan (used to tell `apply FILE` from `apply PATH`). */
export function isPlanFile(text: string): boolean {
  return text.trimStart().startsWith(`{"format":"${TAG}"`);
}

/** Decodes a saved plan; returns an error message for anything else. */
export function decodePlanFile(text: string): Plan | string {
  let file: PlanFile;
  try {
    file = JSON.parse(text) as PlanFile;
  } catch {
    return 'not a saved plan (not JSON)';
  }
  if (file.format !== TAG) return 'not a saved plan';
  if (file.format_version !== PLAN_FORMAT_VERSION) return `saved plan format ${file.format_version} is not supported (expected ${PLAN_FORMAT_VERSION})`;
  return file.plan;
}
