/**
 * The guardrails stage's entry function (docs/manifest.md, "Guardrails"): the plan's own data —
 * the values each object will have once the plan is applied, in the account's currency — checked
 * against the policy of each account. Pure: no clock but the `now` it is given (whether a line
 * item's flight has ended), no I/O. Amounts are integer micros and the sums BigInt, so every
 * comparison is exact in any currency.
 */
import { warningAt, type Diagnostic } from '../diag/diagnostic.js';
import type { ResourceChange } from '../diff/types.js';
import { KINDS } from '../kinds/registry.js';
import { formatAddress } from '../manifest/address.js';
import { formatMicros } from '../manifest/money.js';
import type { AccountPlan, GuardrailViolation, Plan, RetiringObject } from '../plan/types.js';
import { GUARDRAIL_RULES, type GuardrailPolicy, type GuardrailRule, type InForce } from './policy.js';

/** What the check is given: the plan, each account plan's policy, the rules lifted for the run, the time. */
interface GuardrailsInput {
  plan: Plan;
  policyOf: (account: AccountPlan) => GuardrailPolicy | undefined;
  allowed: ReadonlySet<string>;
  now: Date;
}

/** Where the rules over a whole account put their violations. */
const ACCOUNT = 'account';
const DEFAULT_CURRENCY = 'USD';
const MICROS = 1_000_000n;

const money = (micros: bigint | number, currency: string): string => `${formatMicros(Number(micros), currency)} ${currency}`;
const microsOf = (value: unknown): bigint | undefined => (typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : undefined);

/** A percentage given in millionths, as written: 50, 12.5. */
function percent(millionths: bigint): string {
  const whole = millionths / MICROS;
  const fraction = (millionths % MICROS).toString().padStart(6, '0').replace(/0+$/, '');
  return `${whole.toString()}${fraction === '' ? '' : `.${fraction}`}%`;
}

/** `increase / base` as a percentage with two decimals, rounded up so it never reads below the limit it broke. */
function ratio(increase: bigint, base: bigint): string {
  const hundredths = (increase * 10_000n + base - 1n) / base;
  return `+${(hundredths / 100n).toString()}.${(hundredths % 100n).toString().padStart(2, '0')}%`;
}

interface Context {
  account: AccountPlan;
  allowed: ReadonlySet<string>;
  out: GuardrailViolation[];
}

function push(ctx: Context, rule: GuardrailRule, setting: InForce<unknown>, found: Omit<GuardrailViolation, 'rule' | 'account' | 'enforcement' | 'allowed'>): void {
  ctx.out.push({ rule, account: ctx.account.account, enforcement: setting.enforcement, allowed: ctx.allowed.has(rule), ...found });
}

const writes = (c: ResourceChange): boolean => c.action === 'create' || c.action === 'update' || c.action === 'replace';

/** The rules on one object's own values: budgets, bid, status of a create, name, serving when taken down. */
function checkChange(ctx: Context, policy: GuardrailPolicy, change: ResourceChange, retiring: ReadonlyMap<string, RetiringObject>, now: Date): void {
  const descriptor = KINDS[change.kind];
  const address = formatAddress(change.address);
  const currency = change.currency ?? DEFAULT_CURRENCY;
  const at = change.source === undefined ? {} : { source: change.source };
  const after = change.after ?? {};
  if (writes(change)) {
    const limits: Array<[GuardrailRule, string | undefined]> = [
      ['max_daily_budget', descriptor.budgets?.daily],
      ['max_total_budget', descriptor.budgets?.total],
      ['max_bid', descriptor.bid],
    ];
    for (const [rule, field] of limits) {
      const setting = policy[rule] as InForce<number> | undefined;
      const value = field === undefined ? undefined : microsOf(after[field]);
      if (setting === undefined || field === undefined || value === undefined || value <= BigInt(setting.value)) continue;
      push(ctx, rule, setting, { address, attribute: field, value: money(value, currency), limit: money(setting.value, currency), ...at });
    }
    const names = policy.names;
    const pattern = names?.value.get(descriptor.address.collection);
    const name = after['name'];
    if (names !== undefined && pattern !== undefined && typeof name === 'string' && !pattern.pattern.test(name)) {
      push(ctx, 'names', names, { address, attribute: 'name', value: name, limit: `/${pattern.source}/`, ...at });
    }
  }
  const spec = descriptor.serving;
  if (spec === undefined) return;
  if (policy.create_paused !== undefined && (change.action === 'create' || change.action === 'replace')) {
    const status = after[spec.field] ?? spec.active;
    if (status !== spec.paused) push(ctx, 'create_paused', policy.create_paused, { address, attribute: spec.field, value: String(status), limit: spec.paused, ...at });
  }
  if (policy.protect_serving !== undefined && (change.action === 'delete' || change.action === 'replace')) {
    // what the plan recorded serves (an ACTIVE line item under a paused campaign does not); a plan
    // that recorded nothing of it is judged by the object's own status and flight
    const live = retiring.get(address);
    const end = change.before?.[descriptor.flight?.end ?? ''];
    const serves = live !== undefined ? live.serves : change.before?.[spec.field] === spec.active && !(typeof end === 'string' && Date.parse(end) <= now.getTime());
    if (serves) {
      push(ctx, 'protect_serving', policy.protect_serving, { address, value: `${spec.active}, ${change.action === 'delete' ? 'deleted' : 'replaced'}`, limit: 'not deleted or replaced while serving', ...at });
    }
  }
}

/**
 * The rules over the whole account: serving spend after against before, per currency, as the plan
 * counts it (src/plan/serving-spend.ts): an activation is an increase, a paused budget counts in
 * neither, and the percentage's base is what served before; and what serves after the plan
 * commits over its flights.
 */
function checkSpend(ctx: Context, policy: GuardrailPolicy): void {
  const absolute = policy.max_daily_spend_increase;
  const relative = policy.max_daily_spend_increase_percent;
  const committed = policy.max_committed_spend;
  if (absolute === undefined && relative === undefined && committed === undefined) return;
  for (const { currency, serving } of ctx.account.spend) {
    if (serving === undefined) continue;
    const commits = BigInt(serving.committedMicros ?? 0);
    if (committed !== undefined && commits > BigInt(committed.value)) {
      push(ctx, 'max_committed_spend', committed, { address: ACCOUNT, value: `${money(commits, currency)} committed`, limit: `${money(committed.value, currency)}` });
    }
    const before = BigInt(serving.beforeMicros);
    const after = BigInt(serving.afterMicros);
    const increase = after - before;
    if (absolute !== undefined && increase > BigInt(absolute.value)) {
      push(ctx, 'max_daily_spend_increase', absolute, { address: ACCOUNT, value: `+${money(increase, currency)}/day`, limit: `+${money(absolute.value, currency)}/day` });
    }
    // a percentage of nothing means nothing: only an account that spent before is held to it
    if (relative !== undefined && before > 0n && increase * 100n * MICROS > BigInt(relative.value) * before) {
      push(ctx, 'max_daily_spend_increase_percent', relative, { address: ACCOUNT, value: `${ratio(increase, before)} (+${money(increase, currency)}/day on ${money(before, currency)}/day)`, limit: `+${percent(BigInt(relative.value))}` });
    }
  }
}

const RULE_ORDER = new Map<string, number>(GUARDRAIL_RULES.map((r, i) => [r, i]));

/**
 * Every violation of the plan, accounts in plan order; within one, the objects' by address, then
 * the account's own. A violation of a rule in `allowed` is listed with `allowed: true`.
 */
export function checkGuardrails(input: GuardrailsInput): GuardrailViolation[] {
  const out: GuardrailViolation[] = [];
  for (const account of input.plan.accounts) {
    const policy = input.policyOf(account);
    if (policy === undefined) continue;
    const ctx: Context = { account, allowed: input.allowed, out: [] };
    const retiring = new Map((account.retiring ?? []).map((r) => [r.address, r]));
    for (const change of account.changes) if (change.action !== 'noop') checkChange(ctx, policy, change, retiring, input.now);
    ctx.out.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : (RULE_ORDER.get(a.rule) ?? 0) - (RULE_ORDER.get(b.rule) ?? 0)));
    checkSpend(ctx, policy);
    out.push(...ctx.out);
  }
  return out;
}

/** The code of the note that the percentage rule had no base to apply to. */
export const NO_BASE = 'guardrail-no-base';

/**
 * Where `max_daily_spend_increase_percent` is in force but nothing served before the plan while
 * something serves after it, a warning that says so: a percentage of nothing is not a limit, and
 * the absolute rule is what holds the increase.
 */
export function percentageNotes(input: GuardrailsInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const account of input.plan.accounts) {
    const policy = input.policyOf(account);
    if (policy?.max_daily_spend_increase_percent === undefined) continue;
    for (const { currency, serving } of account.spend) {
      if (serving === undefined || serving.beforeMicros !== 0 || serving.afterMicros === 0) continue;
      const absolute = policy.max_daily_spend_increase === undefined ? 'no max_daily_spend_increase is set to hold it' : `max_daily_spend_increase (+${money(policy.max_daily_spend_increase.value, currency)}/day) still holds it`;
      out.push(warningAt(NO_BASE, `max_daily_spend_increase_percent does not apply to account ${account.account}: nothing served in ${currency} before the plan, which makes +${money(serving.afterMicros, currency)}/day serve; ${absolute}`));
    }
  }
  return out;
}

/** Whether a violation stops the run: mandatory, and not lifted by `--allow`. */
export function isBlocking(v: GuardrailViolation): boolean {
  return v.enforcement === 'mandatory' && !v.allowed;
}
