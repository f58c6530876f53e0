/**
 * Errors with the advertising API's wire codes. A handler throws a `WireError`; the server turns
 * it into the service's error body (`{"errors":[...],"request":{"params":{...}}}`) with its status.
 * Codes follow the service: strings such as `NOT_FOUND` on the advertising endpoints, integers
 * such as 89 (revoked token) where the service uses them.
 */

/** One entry of the `errors` array of an error body. */
export interface WireErrorItem {
  code: string | number;
  message: string;
  parameter?: string;
}

/** An error answered to the client: HTTP status plus one or more wire error items. */
export class WireError extends Error {
  readonly status: number;
  readonly items: WireErrorItem[];
  readonly headers: Record<string, string>;
  /** A complete body that replaces the usual one (a failed batch's `operation_errors`). */
  readonly body: unknown;

  constructor(status: number, items: WireErrorItem[], headers: Record<string, string> = {}, body?: unknown) {
    super(items.map((i) => `${i.code}: ${i.message}`).join('; ') || `HTTP ${status}`);
    this.status = status;
    this.items = items;
    this.headers = headers;
    this.body = body;
  }
}

function item(code: string | number, message: string, parameter?: string): WireErrorItem {
  return parameter === undefined ? { code, message } : { code, message, parameter };
}

export const invalidParameter = (parameter: string, message: string): WireError =>
  new WireError(400, [item('INVALID_PARAMETER', message, parameter)]);

export const missingParameter = (parameter: string): WireError =>
  new WireError(400, [item('MISSING_PARAMETER', `"${parameter}" is a required parameter`, parameter)]);

export const badRequest = (code: string, message: string, parameter?: string): WireError =>
  new WireError(400, [item(code, message, parameter)]);

export const notFound = (what: string, id: string, accountId: string | undefined, parameter: string): WireError =>
  new WireError(404, [
    item('NOT_FOUND', accountId === undefined ? `${what} ${id} was not found` : `${what} ${id} was not found for Account ${accountId}`, parameter),
  ]);

export const routeNotFound = (): WireError =>
  new WireError(404, [item('ROUTE_NOT_FOUND', 'Sorry, that page does not exist')]);

export const methodNotAllowed = (method: string): WireError =>
  new WireError(405, [item('METHOD_NOT_ALLOWED', `Method ${method} not allowed.`)]);

export const unauthorized = (): WireError =>
  new WireError(401, [item('UNAUTHORIZED_ACCESS', 'This request is not properly authenticated')]);

export const invalidToken = (): WireError =>
  new WireError(401, [item(89, 'Invalid or expired token.')]);

export const accountNotFound = (accountId: string): WireError =>
  new WireError(403, [item('ACCOUNT_NOT_FOUND', `User does not have access to Account ${accountId}`, 'account_id')]);

export const actionNotAllowed = (message: string): WireError =>
  new WireError(403, [item('ACTION_NOT_ALLOWED', message)]);

export const tooManyRequests = (headers: Record<string, string>): WireError =>
  new WireError(429, [item('TOO_MANY_REQUESTS', 'Rate limit exceeded')], headers);

/** Several parameter problems reported at once, as the service does. */
export const combine = (errors: WireError[]): WireError => {
  const first = errors[0];
  if (errors.length === 1 && first !== undefined) return first;
  return new WireError(first?.status ?? 400, errors.flatMap((e) => e.items));
};
