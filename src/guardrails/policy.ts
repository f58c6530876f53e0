/**
 * Guardrails as data (docs/manifest.md, "Guardrails"): the rules `adsctl.yaml` may set, each
 * setting with its enforcement and where it is written, and the policy in force for one account —
 * the `guardrails:` block with the account's entry under `accounts:` laid over it.
 */
import type { SourceRange } from '../diag/source-range.js';

/** Every rule, in the order they are documented and checked. */
export const GUARDRAIL_RULES = [
  'max_daily_budget',
  'max_total_budget',
  'max_bid',
  'max_daily_spend_increase',
  'max_daily_spend_increase_percent',
  'max_committed_spend',
  'create_paused',
  'protect_serving',
  'names',
] as const;

export type GuardrailRule = (typeof GUARDRAIL_RULES)[number];

/** Whether a rule may be lifted by name (`--allow RULE`). */
export function isGuardrailRule(name: string): name is GuardrailRule {
  return (GUARDRAIL_RULES as readonly string[]).includes(name);
}

/** A mandatory violation stops the plan and apply; an advisory one is a warning. */
export type Enforcement = 'mandatory' | 'advisory';

/** One rule as written: its value, its own enforcement when it sets one, and its place in adsctl.yaml. */
interface Setting<T> {
  value: T;
  enforcement?: Enforcement;
  range?: SourceRange;
}

/** A regular expression of `names`, with its text as written. */
export interface NamePattern {
  source: string;
  pattern: RegExp;
}

/**
 * The rules of one scope (the whole block, or one account), each absent when the scope does not
 * set it; `null` when the scope switches it off (`max_bid: null`, `create_paused: false`). Money
 * is in micros of the account's currency; the percentage in millionths of a percent, so both are
 * compared exactly, in integers.
 */
export interface GuardrailRules {
  enforcement?: Enforcement;
  max_daily_budget?: Setting<number> | null;
  max_total_budget?: Setting<number> | null;
  max_bid?: Setting<number> | null;
  max_daily_spend_increase?: Setting<number> | null;
  max_daily_spend_increase_percent?: Setting<number> | null;
  max_committed_spend?: Setting<number> | null;
  create_paused?: Setting<true> | null;
  protect_serving?: Setting<true> | null;
  /** Per collection name (`campaigns`, `line_items`). */
  names?: Setting<ReadonlyMap<string, NamePattern>> | null;
}

/** The `guardrails:` block of a root's adsctl.yaml. */
export interface GuardrailsConfig {
  rules: GuardrailRules;
  /** The entries of `accounts:`, by live account id. */
  accounts: ReadonlyMap<string, GuardrailRules>;
}

/** A rule in force for an account: its value and the enforcement that applies to it. */
export interface InForce<T> {
  value: T;
  enforcement: Enforcement;
}

/** The rules in force for one account. */
export type GuardrailPolicy = { [R in GuardrailRule]?: InForce<R extends 'names' ? ReadonlyMap<string, NamePattern> : R extends 'create_paused' | 'protect_serving' ? true : number> };

type RuleSettings = Omit<GuardrailRules, 'enforcement'>;

/**
 * The policy of account `accountId` (undefined for an account without an id yet): each rule from
 * its `accounts:` entry when that sets it, else from the block; its enforcement the rule's own,
 * else the account entry's `enforcement`, else the block's, else mandatory. `names` is laid over
 * per collection.
 */
export function policyFor(config: GuardrailsConfig, accountId: string | undefined): GuardrailPolicy {
  const own = accountId === undefined ? undefined : config.accounts.get(accountId);
  const scope = own?.enforcement ?? config.rules.enforcement ?? 'mandatory';
  const policy: Record<string, InForce<unknown>> = {};
  for (const rule of [...GUARDRAIL_RULES]) {
    const key = rule as keyof RuleSettings;
    const base = config.rules[key];
    const over = own === undefined || !(key in own) ? undefined : own[key];
    let setting: Setting<unknown> | null | undefined = own !== undefined && key in own ? over : base;
    if (rule === 'names' && base !== null && base !== undefined && over !== null && over !== undefined) {
      const merged = new Map([...(base.value as ReadonlyMap<string, NamePattern>), ...(over.value as ReadonlyMap<string, NamePattern>)]);
      setting = { ...over, value: merged };
    }
    if (setting === null || setting === undefined) continue;
    policy[rule] = { value: setting.value, enforcement: setting.enforcement ?? scope };
  }
  return policy as GuardrailPolicy;
}
