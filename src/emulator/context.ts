/**
 * What a handler receives and returns, and how routes are declared. Handlers are thin: they read
 * typed parameters, consult and change the store, and return a response body; the server does
 * authentication, account access, rate limits, transactions and serialisation around them.
 */
import type { Clock } from './clock.js';
import type { ParamReader } from './params.js';
import type { ParsedRequest } from './request.js';
import type { Row } from './store/row.js';
import type { Store } from './store/store.js';

/** Who is calling: a user through an access token, or an application through a bearer token. */
export type Principal =
  | { kind: 'user'; userId: string; consumerKey: string; token: string; readOnly: boolean }
  | { kind: 'app'; consumerKey: string };

/** Account permission a route needs (see the Authenticated user access permissions). */
export type Access = 'none' | 'any' | 'read' | 'campaign' | 'creative' | 'admin' | 'audience';

/** Rate limit family of a route (docs/service-behaviour.md, "Rate limits"). */
export type RateFamily = 'write' | 'core_read' | 'account_read' | 'global_read' | 'targeting_options' | 'audience_users' | 'insights';

export interface ApiContext {
  req: ParsedRequest;
  /** Query and form parameters, with the path parameters already in the echo. */
  params: ParamReader;
  pathParams: Record<string, string>;
  /** The JSON body, when the request had one. */
  json: unknown;
  store: Store;
  clock: Clock;
  principal: Principal;
  /** The account of `:account_id`, already checked to be the caller's. */
  account: Row | undefined;
  /** The caller's permissions on `account`. */
  permissions: readonly string[];
  /** True when the request came through the sandbox base URL. */
  sandbox: boolean;
}

export interface HandlerResult {
  status?: number;
  body: unknown;
}

type Handler = (ctx: ApiContext) => HandlerResult;

/** One endpoint: method, path pattern below the base URL, and how the server must treat it. */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** e.g. `/12/accounts/:account_id/campaigns/:campaign_id` */
  path: string;
  family: RateFamily;
  access: Access;
  /** Served only at the sandbox base URL. */
  sandboxOnly?: boolean;
  /** The body must be JSON (`Content-Type: application/json`). */
  jsonBody?: boolean;
  /** A bearer (application-only) token may call it; otherwise a user context is required. */
  appOnly?: boolean;
  handler: Handler;
}
