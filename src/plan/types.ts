/**
 * The plan (docs/architecture.md): the changes of every account and the ordered steps that make them, each
 * step a set of requests within the API's limits. Pure data, produced by `buildPlan`, saved by
 * `plan --out`, rendered by `render/`, executed by `applyPlan`.
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import type { ResourceChange } from '../diff/types.js';
import type { ResourceKind } from '../manifest/types.js';

export const PLAN_FORMAT_VERSION = '2.0';

/** One write of one resource; `params` may hold `UnknownRef`s resolved at apply time. */
export interface Operation {
  /** Unique in its account plan: the action and the address (a replace has a delete and a create). */
  key: string;
  /** Formatted address of the resource (the key into state). */
  address: string;
  kind: ResourceKind;
  action: 'create' | 'update' | 'delete';
  /** The live id, for update and delete. */
  id?: string;
  /** Parameters in API field names: only the changed writable fields for an update. */
  params: Record<string, unknown>;
  /** Keys of the operations that must have succeeded before this one is sent (see plan/order.ts). */
  after: string[];
}

/**
 * A step: requests of one kind and action that may run together, sent the way the kind's write
 * endpoint takes them (src/kinds/descriptor.ts, `WriteEndpoint`):
 * - `batch`: through a batch endpoint, `operations` cut into requests of `limit`;
 * - `grouped`: all for one parent (`group`: its id, or the address of one yet to be created),
 *   `limit` a request;
 * - `list`: every operation's key in one comma list, `limit` a request;
 * - `single`: one request per operation.
 */
export type Step =
  | { type: 'batch'; kind: ResourceKind; action: Operation['action']; limit: number; operations: Operation[] }
  | { type: 'grouped'; kind: ResourceKind; action: Operation['action']; group: string; limit: number; operations: Operation[] }
  | { type: 'list'; kind: ResourceKind; action: Operation['action']; limit: number; operations: Operation[] }
  | { type: 'single'; kind: ResourceKind; action: Operation['action']; operations: Operation[] };

/** Money moved by the plan, in micros of one currency. */
export interface SpendDelta {
  currency: string;
  /** Sum over changed campaigns and line items of (new daily budget - old daily budget). */
  dailyMicros: number;
  totalMicros: number;
}

export interface RequestEstimate {
  /** Requests made to read live state for this plan. */
  reads: number;
  /** Write requests the steps will send. */
  writes: number;
  /** Of those, requests to batch endpoints. */
  batches: number;
}

export interface AccountPlan {
  account: string;
  accountId?: string;
  /**
   * The configuration root (absolute) whose `.adsctl/` holds the account's state; a saved plan
   * also records it relative to the plan file, and apply finds the state there wherever it runs.
   */
  root?: string;
  /** In a saved plan: `root` relative to the directory of the plan file. */
  rootFromPlanFile?: string;
  /**
   * The folder of the account's manifest, relative to `root` (absolute when there is no root):
   * apply reads the files the manifest names (media, member lists) from it.
   */
  manifestDir?: string;
  endpoint: string;
  changes: ResourceChange[];
  /**
   * Layers of steps, from the dependency graph of the operations (plan/schedule.ts): every step
   * of a layer may run at once; layers run in order, and an operation runs only when every
   * operation it comes `after` succeeded.
   */
  layers: Step[][];
  requests: RequestEstimate;
  spend: SpendDelta[];
  /** Fingerprint (updated_at or hash) of every live object the plan touches, by id. */
  fingerprints: Record<string, string>;
  /**
   * Deletes that need no request: children (targeting, promoted posts and accounts, media
   * creatives, curated categories) of a line item deleted by the same plan, which the service
   * retires with it. Apply forgets them once their line item is deleted.
   */
  implied: Array<{ address: string; by: string }>;
  /** The state serial the plan was made against; a saved plan is stale when it moved. */
  stateSerial: number;
}

export interface Plan {
  formatVersion: string;
  /** `plan` or `destroy`. */
  mode: 'plan' | 'destroy';
  accounts: AccountPlan[];
  /** Problems that make the plan unusable (prevent_destroy, lookups); apply refuses such a plan. */
  diagnostics: Diagnostic[];
}
