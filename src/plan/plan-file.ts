/**
 * Saved plans (`plan --out FILE`, `apply FILE`): the plan object itself as JSON, tagged so that
 * any other file is refused, with the time it was made. It holds the fingerprints of every live
 * object it touches and the state serial of every account, so apply can tell precisely whether
 * it went stale. No secrets are in a plan.
 */
import type { Plan } from './types.js';
import { PLAN_FORMAT_VERSION } from './types.js';

const TAG = 'adsctl-plan';

interface PlanFile {
  format: typeof TAG;
  format_version: string;
  created_at: string;
  plan: Plan;
}

export function encodePlanFile(plan: Plan, now = new Date()): string {
  const file: PlanFile = { format: TAG, format_version: PLAN_FORMAT_VERSION, created_at: now.toISOString(), plan };
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
