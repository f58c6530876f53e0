/**
 * The guardrails of a run (docs/manifest.md, "Guardrails"): the policy of each account from the
 * `adsctl.yaml` of its configuration root, checked on the plan (src/guardrails/check.ts) when it
 * is made and again when a saved plan is applied, so a plan made under other guardrails is held
 * to the ones in force. The result is carried in the plan (`Plan.guardrails`, `Plan.allowed`),
 * which the renderers show and the commands act on.
 */
import { checkGuardrails, isBlocking, NO_BASE, percentageNotes } from '../guardrails/check.js';
import { policyFor, type GuardrailsConfig } from '../guardrails/policy.js';
import type { AccountPlan, GuardrailViolation, Plan } from '../plan/types.js';

/** The guardrails a run is held to: each root's block (roots without one are absent), the rules `--allow` lifts. */
export interface RunGuardrails {
  configs: ReadonlyMap<string, GuardrailsConfig>;
  allowed: readonly string[];
}

/**
 * Checks `plan` against `guardrails` and records the outcome in it: every violation, and the
 * rules lifted for the run (sorted). `rootOf` names the configuration root of an account plan (a
 * saved plan's is found where it is applied); by default the root it records.
 */
export function guardPlan(plan: Plan, guardrails: RunGuardrails, now: Date, rootOf: (account: AccountPlan) => string | undefined = (a) => a.root): void {
  const allowed = [...new Set(guardrails.allowed)].sort();
  const input = {
    plan,
    policyOf: (account: AccountPlan) => {
      const root = rootOf(account);
      const config = root === undefined ? undefined : guardrails.configs.get(root);
      return config === undefined ? undefined : policyFor(config, account.accountId);
    },
    allowed: new Set(allowed),
    now,
  };
  plan.guardrails = checkGuardrails(input);
  // checked again when a saved plan is applied: its notes are those of the guardrails in force
  plan.diagnostics = [...plan.diagnostics.filter((d) => d.code !== NO_BASE), ...percentageNotes(input)];
  if (allowed.length > 0) plan.allowed = allowed;
  else delete plan.allowed;
}

/** The violations that stop the run: mandatory and not lifted. */
export function blockingViolations(plan: Plan): GuardrailViolation[] {
  return (plan.guardrails ?? []).filter(isBlocking);
}

/** What the versions of state an apply keeps are named after: the verb, and the rules it ran with lifted. */
export function runOperation(verb: string, plan: Plan): string {
  return plan.allowed === undefined || plan.allowed.length === 0 ? verb : `${verb} (--allow ${plan.allowed.join(', --allow ')})`;
}
