/**
 * The request `adsctl api METHOD PATH [KEY=VALUE...] [--data JSON]` describes, checked before
 * anything is opened or sent: a method of the API (GET, POST, PUT, DELETE, in any case), a path
 * below the endpoint's advertising base URL (`/12/accounts/...`, its query string read as
 * parameters), parameters as `KEY=VALUE` (split at the first `=`; an empty value unsets a field,
 * as the API reads it), and a JSON body for POST and PUT. A problem is one line that says what
 * to type instead.
 */

/** The methods of the advertising API, which the client sends. */
export const API_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
type ApiMethod = (typeof API_METHODS)[number];

/** A request typed by hand, ready for the client: parameters go in the query (GET, DELETE, a JSON body) or the form body. */
export interface HandRequest {
  method: ApiMethod;
  /** Below the advertising base URL, without its query string. */
  path: string;
  params: Record<string, string>;
  /** The parsed `--data`, sent as the JSON body (unsigned, as the service verifies it). */
  json?: unknown;
}

/** What the command line gave: the two arguments, the `KEY=VALUE` words, and the text of `--data`. */
export interface HandArguments {
  method: string;
  path: string;
  pairs: readonly string[];
  data?: string;
}

/** Parameter names as the API spells them: letters, digits and underscores. */
const KEY = /^[A-Za-z0-9_]+$/;

const isMethod = (value: string): value is ApiMethod => (API_METHODS as readonly string[]).includes(value);

/** Why `path` is not a path adsctl api sends, or undefined. */
function pathProblem(path: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    return `PATH ${JSON.stringify(path)} is a URL: give the path below the endpoint (/12/accounts/...); the endpoint comes from --endpoint, ADSCTL_ENDPOINT or the manifests`;
  }
  if (!path.startsWith('/')) return `PATH ${JSON.stringify(path)} must start with / (e.g. /12/accounts): it is below the endpoint's advertising base URL`;
  if (/[\s\u0000-\u001f\u007f]/.test(path)) return `PATH ${JSON.stringify(path)} holds a space or a control character: percent-encode it, or give the value as KEY=VALUE`;
  if (path.includes('#')) return `PATH ${JSON.stringify(path)} has a fragment (#...), which is never sent: leave it out`;
  const segments = path.split('?', 1)[0]!.split('/');
  if (segments.some((s) => s === '.' || s === '..')) return `PATH ${JSON.stringify(path)} has a . or .. segment: give the path as the API names it`;
  return undefined;
}

/** Adds one parameter, or says why it cannot be. */
function addParam(params: Record<string, string>, key: string, value: string, shown: string): string | undefined {
  if (!KEY.test(key)) return `${shown}: ${key === '' ? 'the name before = is empty' : `${JSON.stringify(key)} is not a parameter name (letters, digits and _)`}`;
  if (key.toLowerCase().startsWith('oauth_')) return `${shown}: oauth_ parameters belong to the signature, which adsctl makes; leave them out`;
  if (Object.hasOwn(params, key)) return `${shown}: ${key} is given twice; a list is one comma-separated value (${key}=ONE,TWO)`;
  params[key] = value;
  return undefined;
}

/** Whether the first `n` characters of `text` hold a fault of JSON, not merely end early. */
function faultWithin(text: string, n: number): boolean {
  try {
    JSON.parse(text.slice(0, n));
    return false;
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/end of JSON input|Unterminated/i.test(message)) return false;
    // a fault the parser places at the very end is the text ending early
    const at = /at position (\d+)/.exec(message)?.[1];
    return at === undefined || Number(at) < n;
  }
}

/** ` at line L, column C` of the first fault of JSON in `text`, found by halving; empty when the text merely ends early. */
function faultPosition(text: string): string {
  if (!faultWithin(text, text.length)) return '';
  let lo = 0;
  let hi = text.length;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (faultWithin(text, mid)) hi = mid;
    else lo = mid;
  }
  const lines = text.slice(0, hi - 1).split('\n');
  return ` at line ${lines.length}, column ${(lines[lines.length - 1]?.length ?? 0) + 1}`;
}

/** The parsed text of `--data`, or the one-line reason it is not JSON (its text is not quoted: it may be private). */
function parseData(text: string): { json: unknown } | { problem: string } {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return { problem: `--data is not valid JSON${faultPosition(text)}: give one JSON value, e.g. --data '[{"operation_type":"Update","params":{...}}]'` };
  }
}

/** The request the arguments describe, or the one-line problem with them; nothing is sent either way. */
export function parseHandRequest(args: HandArguments): { request: HandRequest } | { problem: string } {
  const method = args.method.toUpperCase();
  if (!isMethod(method)) return { problem: `unknown method ${JSON.stringify(args.method)}: adsctl api sends ${API_METHODS.slice(0, -1).join(', ')} or ${API_METHODS[API_METHODS.length - 1]}` };
  const problem = pathProblem(args.path);
  if (problem !== undefined) return { problem };
  const query = args.path.indexOf('?');
  const path = query < 0 ? args.path : args.path.slice(0, query);
  const params: Record<string, string> = {};
  if (query >= 0) {
    for (const [key, value] of new URLSearchParams(args.path.slice(query + 1))) {
      const refused = addParam(params, key, value, `the query of PATH (${key}=...)`);
      if (refused !== undefined) return { problem: refused };
    }
  }
  for (const pair of args.pairs) {
    const eq = pair.indexOf('=');
    if (eq < 0) return { problem: `${JSON.stringify(pair)} is not KEY=VALUE: parameters are written name=value (entity_status=PAUSED), an empty value as name=` };
    const refused = addParam(params, pair.slice(0, eq), pair.slice(eq + 1), JSON.stringify(pair));
    if (refused !== undefined) return { problem: refused };
  }
  if (args.data === undefined) return { request: { method, path, params } };
  if (method !== 'POST' && method !== 'PUT') return { problem: `--data sends a JSON body, which only POST and PUT take; give the parameters of ${method} as KEY=VALUE` };
  const data = parseData(args.data);
  if ('problem' in data) return data;
  return { request: { method, path, params, json: data.json } };
}
