/**
 * The one error type of the API client. It carries what a caller needs to decide what to do —
 * status, the service's code (string on advertising endpoints, integer on token endpoints),
 * message, parameter, and whether retrying could help — and never a credential.
 */

export interface ApiErrorItem {
  code: string | number;
  message: string;
  parameter?: string;
}

/**
 * Whether the request reached the service and what it did: `rejected` (it answered with an
 * error), `unknown` (a write whose response never came: it may or may not have happened), or
 * `unsent` (the client gave up before sending, e.g. the rate-limit wait budget ran out).
 */
type Outcome = 'rejected' | 'unknown' | 'unsent';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | number;
  readonly parameter: string | undefined;
  readonly items: ApiErrorItem[];
  readonly retryable: boolean;
  readonly outcome: Outcome;
  /** `METHOD path` of the request, without query or credentials. */
  readonly request: string;
  /** The parsed error body as the service sent it (a failed batch's `operation_errors`). */
  readonly body: unknown;

  constructor(init: { status: number; items: ApiErrorItem[]; retryable: boolean; outcome: Outcome; request: string; message?: string; body?: unknown }) {
    const first = init.items[0];
    super(init.message ?? (first === undefined ? `HTTP ${init.status}` : init.items.map((i) => `${i.code}: ${i.message}`).join('; ')));
    this.name = 'ApiError';
    this.status = init.status;
    this.items = init.items;
    this.code = first?.code ?? init.status;
    this.parameter = first?.parameter;
    this.retryable = init.retryable;
    this.outcome = init.outcome;
    this.request = init.request;
    this.body = init.body;
  }

  /** A one-line description for users: `PUT /12/accounts/x/campaigns/y: 400 INVALID_PARAMETER: ...`. */
  describe(): string {
    return `${this.request}: ${this.status === 0 ? 'no response' : this.status} ${this.message}`;
  }
}

/** Extracts `errors` items from an error body of either dialect; tolerant of non-JSON bodies. */
export function errorItems(body: unknown, status: number): ApiErrorItem[] {
  if (typeof body === 'object' && body !== null) {
    const errors = (body as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      return errors
        .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
        .map((e) => {
          const item: ApiErrorItem = {
            code: typeof e['code'] === 'number' || typeof e['code'] === 'string' ? e['code'] : status,
            message: typeof e['message'] === 'string' ? e['message'] : 'error',
          };
          if (typeof e['parameter'] === 'string') item.parameter = e['parameter'];
          return item;
        });
    }
    const opErrors = (body as { operation_errors?: unknown }).operation_errors;
    if (Array.isArray(opErrors)) return errorItems({ errors: opErrors.flat() }, status);
  }
  return [{ code: status, message: typeof body === 'string' && body.length < 200 && body !== '' ? body : `HTTP ${status}` }];
}
