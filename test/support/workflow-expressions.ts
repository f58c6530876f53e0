/**
 * The part of GitHub Actions' expression language the example workflows use, for running them in
 * tests (test/support/workflow-run.ts): literals ('text', numbers, true, false, null), context
 * paths (`steps.plan.outputs.code`, `secrets.X`), the status functions `always()`, `success()`,
 * `failure()` and `cancelled()`, `!`, `==`, `!=`, `&&`, `||` and parentheses. Comparison follows
 * GitHub: strings compare without regard to case, and values of different types as numbers. A
 * path the caller cannot resolve, or anything else, is an error that names the expression, so a
 * workflow that grows an expression the tests do not know fails loudly instead of reading ''.
 */

/** A value an expression yields. */
export type ExpressionValue = string | number | boolean | null;

/** What an expression reads: a context path's value (throws for an unknown one), and the job's status so far. */
export interface ExpressionScope {
  lookup(path: string): ExpressionValue;
  /** Whether every step run so far succeeded. */
  succeeded: boolean;
}

type Token = { kind: 'op'; text: string } | { kind: 'value'; value: ExpressionValue } | { kind: 'path'; text: string } | { kind: 'call'; name: string };

const STATUS_FUNCTIONS = ['always', 'success', 'failure', 'cancelled'];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const space = /^\s+/.exec(rest);
    const op = /^(==|!=|&&|\|\||!|\(|\))/.exec(rest);
    const text = /^'((?:[^']|'')*)'/.exec(rest);
    const number = /^-?\d+(\.\d+)?/.exec(rest);
    const call = /^([a-zA-Z_][\w-]*)\(\)/.exec(rest);
    const word = /^[a-zA-Z_][\w-]*(\.[a-zA-Z_][\w-]*)*/.exec(rest);
    let token: Token | undefined;
    let length: number;
    if (space) length = space[0].length;
    else if (op) [token, length] = [{ kind: 'op', text: op[0] }, op[0].length];
    else if (text) [token, length] = [{ kind: 'value', value: text[1]!.replaceAll("''", "'") }, text[0].length];
    else if (number) [token, length] = [{ kind: 'value', value: Number(number[0]) }, number[0].length];
    else if (call) [token, length] = [{ kind: 'call', name: call[1]! }, call[0].length];
    else if (word) {
      const w = word[0];
      token = w === 'true' ? { kind: 'value', value: true } : w === 'false' ? { kind: 'value', value: false } : w === 'null' ? { kind: 'value', value: null } : { kind: 'path', text: w };
      length = w.length;
    } else throw new Error(`expression "${source}": cannot read "${rest}"`);
    if (token !== undefined) tokens.push(token);
    i += length;
  }
  return tokens;
}

const toNumber = (v: ExpressionValue): number => (v === null ? 0 : typeof v === 'boolean' ? Number(v) : typeof v === 'number' ? v : v.trim() === '' ? 0 : Number(v));

function equal(a: ExpressionValue, b: ExpressionValue): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b) return a === b;
  return toNumber(a) === toNumber(b);
}

/** Whether a value counts as true in a condition. */
export const truthy = (v: ExpressionValue): boolean => v !== null && v !== false && v !== 0 && v !== '' && !Number.isNaN(v);

/** Evaluates `source` (without `${{ }}`) in `scope`. */
export function evaluate(source: string, scope: ExpressionScope): ExpressionValue {
  const tokens = tokenize(source);
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const isOp = (text: string): boolean => {
    const t = peek();
    return t !== undefined && t.kind === 'op' && t.text === text;
  };
  const fail = (why: string): never => {
    throw new Error(`expression "${source}": ${why}`);
  };
  const primary = (): ExpressionValue => {
    const t = tokens[at++];
    if (t === undefined) return fail('ends too soon');
    if (t.kind === 'value') return t.value;
    if (t.kind === 'path') return scope.lookup(t.text);
    if (t.kind === 'call') {
      if (t.name === 'always') return true;
      if (t.name === 'success') return scope.succeeded;
      if (t.name === 'failure') return !scope.succeeded;
      if (t.name === 'cancelled') return false;
      return fail(`the function ${t.name}() is not known to the tests`);
    }
    if (t.text === '!') return !truthy(primary());
    if (t.text === '(') {
      const inner = or();
      if (!isOp(')')) fail('a parenthesis is not closed');
      at++;
      return inner;
    }
    return fail(`unexpected "${t.text}"`);
  };
  const comparison = (): ExpressionValue => {
    const left = primary();
    if (isOp('==') || isOp('!=')) {
      const negate = (tokens[at++] as { text: string }).text === '!=';
      return equal(left, primary()) !== negate;
    }
    return left;
  };
  const and = (): ExpressionValue => {
    let value = comparison();
    while (isOp('&&')) {
      at++;
      const right = comparison();
      value = truthy(value) ? right : value;
    }
    return value;
  };
  const or = (): ExpressionValue => {
    let value = and();
    while (isOp('||')) {
      at++;
      const right = and();
      value = truthy(value) ? value : right;
    }
    return value;
  };
  const value = or();
  if (at !== tokens.length) fail('has more after its end');
  return value;
}

/** Whether a step or job with `if: condition` runs: without a status function GitHub adds `success() &&`. */
export function conditionHolds(condition: string | undefined, scope: ExpressionScope): boolean {
  if (condition === undefined) return scope.succeeded;
  const source = unwrap(condition);
  const hasStatus = tokenize(source).some((t) => t.kind === 'call' && STATUS_FUNCTIONS.includes(t.name));
  return truthy(evaluate(source, scope)) && (hasStatus || scope.succeeded);
}

/** A condition without its optional `${{ }}`. */
export const unwrap = (condition: string): string => condition.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1').trim();

/** `text` with every `${{ expr }}` replaced by its value (null as ''). */
export function substitute(text: string, scope: ExpressionScope): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => {
    const v = evaluate(expr.trim(), scope);
    return v === null ? '' : String(v);
  });
}
