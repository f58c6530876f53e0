/**
 * Refusals for tests: rules that make the emulator refuse chosen advertising requests, by method,
 * path and parameters, the way the service refuses them, without handling them (nothing changes).
 * Where faults (faults.ts) strike at random, a refusal strikes exactly the request a test names:
 * the create of one targeting value, the promotion of one post.
 *
 * A rule matches a request whose method (any, when the rule names none) and path (a regular
 * expression over the path below the base URL, e.g. `/targeting_criteria$`) match, and whose
 * parameters — query, form body and the entries of a JSON object body — hold every entry of
 * `match`. A value matches a parameter equal to it as a string, or one entry of a list parameter (a
 * comma list, repeated keys, a JSON array), so `{tweet_ids: "5"}` matches `tweet_ids=4,5`.
 *
 * A JSON array body is a batch: the rule matches each item's `params` (and `operation_type`, when
 * `match` names it), and when any item matches, the whole batch is refused as the service refuses
 * one — 400 with `operation_errors` aligned to the input, the rule's error in the slots of the items
 * it matched and `[]` in the others. A rule of status 429 or 5xx is never an item's error: it
 * refuses the whole request with that status.
 *
 * The first rule (in the order added) that matches refuses; a rule with `times` stops after it
 * refused that many requests.
 */
import { WireError, type WireErrorItem } from './errors.js';
import { RepeatedParam } from './request.js';

/** A refusal rule as the control endpoint takes and lists it. */
export interface RefusalRule {
  id: string;
  method?: string;
  path: string;
  match: Record<string, string>;
  status: number;
  code: string;
  message: string;
  parameter?: string;
  times?: number;
  /** How many requests the rule refused. */
  fired: number;
}

/** What a rule is matched against: one request, its parameters and its parsed JSON body. */
interface RefusalRequest {
  method: string;
  path: string;
  params: Record<string, string | RepeatedParam>;
  json: unknown;
}

type Compiled = { rule: RefusalRule; path: RegExp };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The strings a parameter value stands for: itself, and each entry when it is a list. */
function valuesOf(v: unknown): string[] {
  if (v instanceof RepeatedParam) return [v.values.join(','), ...v.values.flatMap((s) => s.split(',').map((x) => x.trim()))];
  if (Array.isArray(v)) return [v.map(String).join(','), ...v.map((x) => (isObject(x) || Array.isArray(x) ? JSON.stringify(x) : String(x)))];
  if (typeof v === 'string') return [v, ...v.split(',').map((x) => x.trim())];
  if (v === null) return [''];
  if (isObject(v)) return [JSON.stringify(v)];
  return v === undefined ? [] : [String(v)];
}

const holds = (params: Record<string, unknown>, match: Record<string, string>): boolean =>
  Object.entries(match).every(([name, wanted]) => Object.prototype.hasOwnProperty.call(params, name) && valuesOf(params[name]).includes(wanted));

/** Reads a rule from the control endpoint's JSON body; a string says what is wrong with it. */
function parseRefusalRule(body: unknown, id: string): RefusalRule | string {
  if (!isObject(body)) return 'expected a JSON object';
  const { method, path, match, status, code, message, parameter, times } = body;
  if (typeof path !== 'string' || path === '') return '"path" (a regular expression) is required';
  try {
    new RegExp(path);
  } catch (error) {
    return `"path" is not a regular expression: ${(error as Error).message}`;
  }
  if (method !== undefined && (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method))) return '"method" must be an HTTP method';
  if (match !== undefined && !isObject(match)) return '"match" must be an object of parameter names to values';
  const entries = Object.entries(match ?? {});
  const bad = entries.find(([, v]) => typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean');
  if (bad !== undefined) return `"match.${bad[0]}" must be a string, number or boolean`;
  if (status !== undefined && (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599)) return '"status" must be an HTTP error status (400-599)';
  if (times !== undefined && (typeof times !== 'number' || !Number.isInteger(times) || times < 1)) return '"times" must be a positive integer';
  for (const [name, v] of [['code', code], ['message', message], ['parameter', parameter]] as const) {
    if (v !== undefined && typeof v !== 'string') return `"${name}" must be a string`;
  }
  const matchText = Object.fromEntries(entries.map(([k, v]) => [k, String(v)]));
  const described = entries.length === 0 ? '' : ` (${entries.map(([k, v]) => `${k}=${String(v)}`).join(', ')})`;
  return {
    id,
    ...(method === undefined ? {} : { method: (method as string).toUpperCase() }),
    path,
    match: matchText,
    status: (status as number | undefined) ?? 400,
    code: (code as string | undefined) ?? 'INVALID_PARAMETER',
    message: (message as string | undefined) ?? `Refused by emulator rule ${id}${described}`,
    ...(parameter === undefined ? {} : { parameter: parameter as string }),
    ...(times === undefined ? {} : { times: times as number }),
    fired: 0,
  };
}

const errorOf = (rule: RefusalRule): WireErrorItem =>
  rule.parameter === undefined ? { code: rule.code, message: rule.message } : { code: rule.code, message: rule.message, parameter: rule.parameter };

/** Only 4xx answers other than 429 are an item's own error in a batch. */
const itemLevel = (rule: RefusalRule): boolean => rule.status < 500 && rule.status !== 429;

/** The refusal rules of one emulator. */
export class Refusals {
  private rules: Compiled[] = [];
  private nextId = 1;

  /** Adds a rule from the control endpoint's body; the rule, or what is wrong with the body. */
  add(body: unknown): RefusalRule | string {
    const rule = parseRefusalRule(body, `r${this.nextId}`);
    if (typeof rule === 'string') return rule;
    this.nextId++;
    this.rules.push({ rule, path: new RegExp(rule.path) });
    return rule;
  }

  /** Removes every rule; answers how many there were. */
  clear(): number {
    const n = this.rules.length;
    this.rules = [];
    return n;
  }

  /** Every rule, in the order added, with how many times each fired. */
  list(): RefusalRule[] {
    return this.rules.map((c) => ({ ...c.rule, match: { ...c.rule.match } }));
  }

  /**
   * The refusal of `req`, or undefined when no live rule matches it. `accountId` goes into a
   * refused batch's `request` echo, as the service echoes it in every item.
   */
  refuse(req: RefusalRequest, accountId: string | undefined): WireError | undefined {
    const live = this.rules.filter((c) => (c.rule.times === undefined || c.rule.fired < c.rule.times) && (c.rule.method === undefined || c.rule.method === req.method) && c.path.test(req.path));
    if (live.length === 0) return undefined;
    if (Array.isArray(req.json)) return this.refuseBatch(live, req.json, accountId);
    const params: Record<string, unknown> = { ...req.params, ...(isObject(req.json) ? req.json : {}) };
    const hit = live.find((c) => holds(params, c.rule.match));
    if (hit === undefined) return undefined;
    hit.rule.fired++;
    return new WireError(hit.rule.status, [errorOf(hit.rule)]);
  }

  private refuseBatch(live: Compiled[], items: unknown[], accountId: string | undefined): WireError | undefined {
    const hits = items.map((item) => {
      const op = isObject(item) ? item : {};
      const params = isObject(op['params']) ? op['params'] : {};
      return live.find((c) => {
        const { operation_type: wantedType, ...wanted } = c.rule.match;
        return (wantedType === undefined || op['operation_type'] === wantedType) && holds(params, wanted);
      });
    });
    const fired = [...new Set(hits.filter((c): c is Compiled => c !== undefined))];
    if (fired.length === 0) return undefined;
    for (const c of fired) c.rule.fired++;
    const whole = fired.find((c) => !itemLevel(c.rule));
    if (whole !== undefined) return new WireError(whole.rule.status, [errorOf(whole.rule)]);
    const operationErrors = hits.map((c) => (c === undefined ? [] : [errorOf(c.rule)]));
    const request = items.map((item) => {
      const op = isObject(item) ? item : {};
      const params = isObject(op['params']) ? op['params'] : {};
      return { params: { ...params, ...(accountId === undefined ? {} : { account_id: accountId }) }, operation_type: op['operation_type'] ?? null };
    });
    return new WireError(400, operationErrors.flat(), {}, { operation_errors: operationErrors, request });
  }
}
