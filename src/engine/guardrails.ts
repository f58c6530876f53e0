/**
 * The guardrails of a run (docs/manifest.md, "Guardrails"): the policy of each account from the
 * `adsctl.yaml` of its configuration root, checked on the plan (src/guardrails/check.ts) when it
 * is made and again when a saved plan is applied, so a plan made under other guardrails is held
 * to the ones in force. The result is carried in the plan (`Plan.guardrails`, `Plan.allowed`),
 * which the renderers show and the commands act on.
 */
import { checkGuardrails, isBlocking, NO_BASE, percentageNotes } from '../guardrails/check.js';
import type { Diagnostic } from '../diag/diagnostic.js';
import { readGuardrails } from '../guardrails/config.js';
import { GUARDRAIL_RULES, isGuardrailRule, policyFor, type GuardrailsConfig } from '../guardrails/policy.js';
import type { AccountPlan, GuardrailViolation, Plan } from '../plan/types.js';

/** The guardrails a run is held to: each root's block (roots without one are absent), the rules `--allow` lifts. */
export interface RunGuardrails {
  configs: ReadonlyMap<string, GuardrailsConfig>;
  allowed: readonly string[];
}

/**
 * The guardrails of `roots` (each with the account ids its manifests give, or undefined to
 * accept any: a saved plan names only the accounts it changes), with the rules `allow` lifts. The
 * texts of the files with errors are added to `sources`, so their diagnostics show the line at
 * fault.
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

/** Why `rule` cannot be lifted with `--allow`, or undefined when it names a guardrail rule. */
export function allowProblem(rule: string): string | undefined {
  return isGuardrailRule(rule) ? undefined : `not a guardrail rule; the rules are ${GUARDRAIL_RULES.join(', ')}`;
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
