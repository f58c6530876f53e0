/**
 * The `guardrails:` section of a root's `adsctl.yaml` (docs/manifest.md, "Guardrails"), read into
 * `GuardrailsConfig`. Every bad setting is an error at its line and column: an unknown rule, an
 * amount that is not a decimal in currency units written as a string (read exactly, as the
 * manifest reads money; a YAML number such as `1e9` is refused, to be quoted), a regular
 * expression that does not compile, a collection without names, an account id no manifest of the
 * root has. Nothing is checked against the service: this runs before anything is sent.
 */
import type { Node as YamlNode, Pair } from 'yaml';
import { yaml } from '../yaml/yaml.js';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import { DESCRIPTORS } from '../kinds/registry.js';
import { decimalToMicros, formatMicros } from '../manifest/money.js';
import { readConfigFile, type ConfigFile } from '../state/config-file.js';
import { GUARDRAIL_RULES, isGuardrailRule, type Enforcement, type GuardrailRules, type GuardrailsConfig, type NamePattern } from './policy.js';

/** The collections whose objects have a name, which `names` may constrain. */
const NAMED_COLLECTIONS: readonly string[] = [...new Set(DESCRIPTORS.filter((d) => d.attributes.some((a) => a.field === 'name')).map((d) => d.address.collection))].sort();

const MONEY_RULES = new Set(['max_daily_budget', 'max_total_budget', 'max_bid', 'max_daily_spend_increase', 'max_committed_spend']);
const SWITCH_RULES = new Set(['create_paused', 'protect_serving']);
const ENFORCEMENTS: readonly Enforcement[] = ['mandatory', 'advisory'];

/** What reading one root's guardrails gives: the block (undefined when it has none, or on errors) and the file's text for diagnostics. */
interface GuardrailsRead {
  config: GuardrailsConfig | undefined;
  diagnostics: Diagnostic[];
  /** The file and its text, when the root has one. */
  source?: { file: string; text: string };
}

interface Reader {
  file: ConfigFile;
  diagnostics: Diagnostic[];
}

const keyOf = (pair: Pair): string => (yaml().isScalar(pair.key) ? String(pair.key.value) : '');

function fail(r: Reader, code: string, message: string, node: unknown): void {
  r.diagnostics.push(errorAt(code, message, r.file.at(node as YamlNode)));
}

/** The scalar's text as written (so `1000.10` stays exact), or its string value. */
function scalarText(r: Reader, node: YamlNode): string | undefined {
  if (!yaml().isScalar(node)) return undefined;
  if (typeof node.value === 'string') return node.value;
  if (typeof node.value !== 'number') return undefined;
  const range = node.range;
  return range === undefined || range === null ? String(node.value) : r.file.text.slice(range[0], range[1]).trim();
}

function readEnforcement(r: Reader, node: YamlNode | null, where: string): Enforcement | undefined {
  const text = node !== null && yaml().isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
  const found = ENFORCEMENTS.find((e) => e === text);
  if (found === undefined) fail(r, 'guardrails-enforcement', `${where} is mandatory or advisory, not ${text ?? 'this'}`, node);
  return found;
}

/**
 * Micros of an amount in currency units, or of a percentage (millionths of a percent). An amount
 * of money is a string, as a budget is written (`"50.00"`): a YAML number (`1e9`, `1000.5`) is
 * refused with the quoted amount to write instead; a percentage may be either.
 */
function readAmount(r: Reader, node: YamlNode, where: string, noun: string, money: boolean): number | undefined {
  const text = scalarText(r, node);
  const parsed = text === undefined ? undefined : decimalToMicros(text);
  if (money && yaml().isScalar(node) && typeof node.value === 'number') {
    const remedy = parsed?.ok === true ? `quote it: "${formatMicros(parsed.micros)}"` : 'write a quoted amount such as "1000.00"';
    fail(r, 'guardrails-number', `${where} ${text ?? String(node.value)} is a YAML number; amounts are strings in currency units, like budgets: ${remedy}`, node);
    return undefined;
  }
  if (parsed?.ok === true) return parsed.micros;
  const why = parsed === undefined || parsed.problem === 'format' ? `is not ${noun} such as "1000.00"` : parsed.problem === 'precision' ? `has ${parsed.decimals} decimal places; at most 6 are allowed` : 'is out of range (not negative, at most 9007199254.740991)';
  fail(r, 'guardrails-number', `${where} ${text === undefined ? '' : `${JSON.stringify(text)} `}${why}`, node);
  return undefined;
}

function readNames(r: Reader, node: YamlNode, where: string): ReadonlyMap<string, NamePattern> | undefined {
  if (!yaml().isMap(node)) {
    fail(r, 'guardrails-value', `${where} is a mapping of collection names to regular expressions, such as { campaigns: "^[A-Z]{2}-" }`, node);
    return undefined;
  }
  const out = new Map<string, NamePattern>();
  for (const pair of node.items) {
    const collection = keyOf(pair);
    if (!NAMED_COLLECTIONS.includes(collection)) {
      fail(r, 'guardrails-collection', `${where} names ${collection === '' ? 'no collection' : `collection ${collection}`}, whose objects have no name; it may name ${NAMED_COLLECTIONS.join(', ')}`, pair.key);
      continue;
    }
    const value = pair.value as YamlNode | null;
    const source = value !== null && yaml().isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
    if (source === undefined) {
      fail(r, 'guardrails-regex', `${where}.${collection} must be a regular expression, written as a string`, value ?? pair.key);
      continue;
    }
    try {
      out.set(collection, { source, pattern: new RegExp(source, 'u') });
    } catch (error) {
      fail(r, 'guardrails-regex', `${where}.${collection}: ${error instanceof Error ? error.message : String(error)}`, value);
    }
  }
  return out;
}

/** One rule's value: the value itself, or `{ value, enforcement }`. */
function readRule(r: Reader, rule: string, node: YamlNode | null, where: string, rules: GuardrailRules): void {
  let valueNode = node;
  let enforcement: Enforcement | undefined;
  if (node !== null && yaml().isMap(node) && rule !== 'names') {
    valueNode = null;
    let hasValue = false;
    for (const pair of node.items) {
      const key = keyOf(pair);
      if (key === 'value') {
        valueNode = (pair.value as YamlNode | null) ?? null;
        hasValue = true;
      } else if (key === 'enforcement') enforcement = readEnforcement(r, (pair.value as YamlNode | null) ?? null, `${where}.enforcement`);
      else fail(r, 'guardrails-key', `${where} has value and enforcement, not ${key}`, pair.key);
    }
    if (!hasValue) {
      fail(r, 'guardrails-value', `${where} needs a value`, node);
      return;
    }
  }
  const range = r.file.at(node as YamlNode);
  const setting = <T>(value: T) => ({ value, ...(enforcement === undefined ? {} : { enforcement }), ...(range === undefined ? {} : { range }) });
  const off = valueNode === null || (yaml().isScalar(valueNode) && valueNode.value === null);
  const target = rules as Record<string, unknown>;
  if (SWITCH_RULES.has(rule)) {
    const on = valueNode !== null && yaml().isScalar(valueNode) ? valueNode.value : undefined;
    if (off || on === false) target[rule] = null;
    else if (on === true) target[rule] = setting(true as const);
    else fail(r, 'guardrails-value', `${where} is true or false`, valueNode);
    return;
  }
  if (off) {
    target[rule] = null;
    return;
  }
  if (rule === 'names') {
    const names = readNames(r, valueNode as YamlNode, where);
    if (names !== undefined) target[rule] = setting(names);
    return;
  }
  const money = MONEY_RULES.has(rule);
  const amount = readAmount(r, valueNode as YamlNode, where, money ? 'an amount in currency units' : 'a percentage', money);
  if (amount !== undefined) target[rule] = setting(amount);
}

/** A scope's mapping: the rules, `enforcement`, and (only at the top) `accounts`. */
function readScope(r: Reader, node: YamlNode, where: string, top: boolean, accounts?: Map<string, GuardrailRules>, knownAccounts?: ReadonlySet<string>): GuardrailRules {
  const rules: GuardrailRules = {};
  if (!yaml().isMap(node)) {
    fail(r, 'guardrails-value', `${where} must be a mapping of rules (${GUARDRAIL_RULES.join(', ')})`, node);
    return rules;
  }
  for (const pair of node.items) {
    const key = keyOf(pair);
    const value = (pair.value as YamlNode | null) ?? null;
    if (key === 'enforcement') {
      const e = readEnforcement(r, value, `${where}.enforcement`);
      if (e !== undefined) rules.enforcement = e;
    } else if (key === 'accounts' && top && accounts !== undefined) {
      readAccounts(r, value, `${where}.accounts`, accounts, knownAccounts);
    } else if (isGuardrailRule(key)) {
      readRule(r, key, value, `${where}.${key}`, rules);
    } else {
      const also = top ? ', enforcement and accounts' : ' and enforcement';
      fail(r, 'guardrails-rule', `${where} has no rule ${key === '' ? 'with this key' : key}; the rules are ${GUARDRAIL_RULES.join(', ')}${also}`, pair.key);
    }
  }
  return rules;
}

function readAccounts(r: Reader, node: YamlNode | null, where: string, accounts: Map<string, GuardrailRules>, knownAccounts?: ReadonlySet<string>): void {
  if (node === null || !yaml().isMap(node)) {
    fail(r, 'guardrails-value', `${where} is a mapping of account ids to rules`, node);
    return;
  }
  for (const pair of node.items) {
    const id = yaml().isScalar(pair.key) ? String(pair.key.value) : '';
    if (knownAccounts !== undefined && !knownAccounts.has(id)) {
      const known = [...knownAccounts].sort();
      fail(r, 'guardrails-account', `${where} names account ${id}, which no manifest of this root has${known.length === 0 ? '' : ` (they have ${known.join(', ')})`}`, pair.key);
      continue;
    }
    accounts.set(id, readScope(r, (pair.value as YamlNode | null) ?? (pair.key as YamlNode), `${where}.${id}`, false));
  }
}

/**
 * The guardrails of `root`'s adsctl.yaml (undefined `config` when it sets none). With
 * `knownAccounts`, the ids the root's manifests give: an `accounts:` entry for any other id is an
 * error (a typo would otherwise lift nothing and limit nothing, silently).
 */
export function readGuardrails(root: string, knownAccounts?: ReadonlySet<string>): GuardrailsRead {
  const read = readConfigFile(root);
  if (read.config === undefined) return { config: undefined, diagnostics: read.diagnostics };
  const source = { file: read.config.file, text: read.config.text };
  const section = read.config.sections.guardrails;
  if (section === undefined || section.value === null) return { config: undefined, diagnostics: [], source };
  const r: Reader = { file: read.config, diagnostics: [] };
  const accounts = new Map<string, GuardrailRules>();
  const rules = readScope(r, section.value, 'guardrails', true, accounts, knownAccounts);
  if (r.diagnostics.length > 0) return { config: undefined, diagnostics: r.diagnostics, source };
  return { config: { rules, accounts }, diagnostics: [], source };
}
