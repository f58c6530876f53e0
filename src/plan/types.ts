/**
 * The plan (docs/architecture.md): the changes of every account and the ordered steps that make them, each
 * step a set of requests within the API's limits. Pure data, produced by `buildPlan`, saved by
 * `plan --out`, rendered by `render/`, executed by `applyPlan`.
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import type { ResourceChange } from '../diff/types.js';
import type { UnmanagedObject } from '../diff/unmanaged.js';
import type { ResourceKind } from '../manifest/types.js';
import type { PlannedMove, PlannedRemoval } from './moves.js';

export const PLAN_FORMAT_VERSION = '2.2';

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
  /**
   * Its part in keeping a serving object from serving wider than the manifest (plan/serving.ts):
   * `held`, a create sent paused and activated later; `pause`, a pause before a change too large
   * for one request; `activate`, the switch to serving once everything under it was written;
   * `repair`, the create of a creative under a serving object that carries none, sent before every
   * other write of the account (plan/without-creative.ts); `restore`, the create that puts back a
   * creative a serving object stopped carrying when none of its new ones could be added
   * (plan/creative-restores.ts: never in a layer, only in `AccountPlan.restores`).
   */
  phase?: 'held' | 'pause' | 'activate' | 'repair' | 'restore';
  /**
   * The address of the serving parent whose changes of this kind go in one all-or-nothing request
   * with this one (an `atomic` step); absent for operations sent as their kind's batches allow.
   */
  together?: string;
  /**
   * Set on a create or delete of a kind whose creates and deletes go through one batch endpoint,
   * when its parent does not serve while it is written (plan/serving.ts): it may share a request
   * with operations of the other action (an `atomic` step), since no moment of it can serve wider.
   */
  mixable?: true;
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
  | { type: 'single'; kind: ResourceKind; action: Operation['action']; operations: Operation[] }
  /**
   * Creates and deletes through the kind's batch endpoint in shared requests of `limit`: the
   * operations of one `together` group always in the same request, the `mixable` ones wherever
   * there is room; deletes first in each request (plan/steps.ts, `packGroups`).
   */
  | { type: 'atomic'; kind: ResourceKind; action: 'create'; limit: number; operations: Operation[] };

/** Money moved by the plan, in micros of one currency. */
export interface SpendDelta {
  currency: string;
  /** Sum over changed campaigns and line items of (new daily budget - old daily budget), whatever their status: the budgets as written. */
  dailyMicros: number;
  totalMicros: number;
  /**
   * Serving spend (serving-spend.ts): what the account's campaigns can spend per day before the
   * plan and after it, and the daily budgets of those that exist after it and do not serve. Absent
   * from the spend a refresh-only plan reports, which is what the drift moved.
   */
  serving?: {
    beforeMicros: number;
    afterMicros: number;
    dormantMicros: number;
    /** What the campaigns that serve after the plan commit over their flights (absent from drift). */
    committedMicros?: number;
    /** Some of those flights has no end and is counted for 30 days. */
    openEnded?: boolean;
  };
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
  /** The account's name, as the manifest gives it or else as the service has it; absent when neither says. */
  name?: string;
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
  /**
   * The serving spend changes made outside adsctl moved, per currency: from the account as last
   * applied to the account as it is (drift-spend.ts); what `plan --refresh-only` and the drift
   * digest report beside the budgets the drift moved.
   */
  driftServing?: Array<{ currency: string } & NonNullable<SpendDelta['serving']>>;
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
  /** How the plan keeps each serving object that it writes under from serving wider (plan/serving.ts). */
  serving: ServingNote[];
  /** The `moved` entries the plan makes (plan/moves.ts): apply renames their state entries before it sends anything. */
  moves?: PlannedMove[];
  /** The `removed` entries the plan makes: apply forgets their state entries; the live objects stay. */
  removals?: PlannedRemoval[];
  /**
   * The live campaigns and line items adsctl does not manage (src/diff/unmanaged.ts), those new
   * since the last apply marked; apply records them as seen. Absent when the plan did not look
   * (`unmanaged: ignore`, destroy, an account no manifest describes).
   */
  unmanaged?: UnmanagedObject[];
  /**
   * What the service's lookups call the values of the changes, by address, then field (a
   * targeting criterion's `targeting_value` → `San Francisco, CA`; plan/targeting-values.ts): from
   * the lookups the plan made, so only for values it looked up. Absent when none is known.
   */
  valueNames?: Record<string, Record<string, string>>;
  /**
   * The objects adsctl does not manage under one the plan deletes or replaces, and what the
   * deletion does to each (plan/unmanaged-children.ts). Absent when there are none, or when the
   * plan did not look (`unmanaged: ignore`, an account no manifest describes).
   */
  unmanagedChildren?: UnmanagedChild[];
  /**
   * The campaigns and line items (kinds with `serving`) the plan deletes or replaces, with their
   * status and end as the service shows them at plan time (plan/retiring.ts): what the
   * `protect_serving` guardrail reads, in a saved plan too. Absent when there are none.
   */
  retiring?: RetiringObject[];
  /**
   * What apply puts back when a serving object's new creatives cannot be added after its old ones
   * were removed (plan/creative-restores.ts). Absent when the plan swaps no creative of a serving object.
   */
  restores?: CreativeRestore[];
  /**
   * The serving objects that carry no creative while the manifest gives them some (an apply stopped
   * between removing the old ones and adding the new), repaired before every other write
   * (plan/without-creative.ts). Absent when there are none.
   */
  withoutCreative?: WithoutCreative[];
}

/**
 * The creatives of one kind a serving object stops carrying, and what puts them back: when none
 * of `insteadOf` succeeded, each of `operations` whose removal (its one `after`) succeeded is sent,
 * so the object carries what the old manifest said rather than nothing. The old creatives are
 * those the state bound, never one made outside adsctl, so putting them back widens nothing.
 */
export interface CreativeRestore {
  /** The serving object's address (a line item). */
  parent: string;
  /** The keys of the creates of its new creatives of the kind. */
  insteadOf: string[];
  /** The creates of the old creatives, `phase: 'restore'`, keyed `restore ADDRESS`, with their values before the plan. */
  operations: Operation[];
  /** The steps that send them, cut as the kind's create endpoint takes them. */
  steps: Step[];
}

/**
 * A serving object the service shows carrying no creative, under which the plan adds creatives
 * of the manifest: those creates (`repairs`, `phase: 'repair'`) go before every other write.
 */
export interface WithoutCreative {
  /** The serving object's address and live id. */
  address: string;
  kind: ResourceKind;
  id: string;
  /** The addresses of the creatives the plan adds to it first. */
  repairs: string[];
}

/**
 * A live object adsctl does not manage under one the plan deletes: as the plan lists unmanaged
 * objects (src/diff/unmanaged.ts), with its parent's address, and `withParent`, what deleting the
 * parent does to it by its descriptor's `retiredWithParent`: it `goes` with it, or `stays`.
 */
export interface UnmanagedChild extends Pick<UnmanagedObject, 'kind' | 'id' | 'name' | 'status' | 'parentId' | 'dailyBudgetMicros' | 'currency' | 'serves'> {
  parentAddress: string;
  withParent: 'goes' | 'stays';
}

/** A serving kind's object the plan deletes or replaces, as it is live. */
export interface RetiringObject {
  address: string;
  /** Its serving field's live value (`entity_status`); null when the record has none. */
  status: string | null;
  /** Its flight's live end (ISO time); null when it has none. */
  end: string | null;
  /** Whether it serves when the plan is made (src/plan/serving-spend.ts): what protect_serving guards. */
  serves: boolean;
}

/**
 * What one guardrail of `adsctl.yaml` says about the plan (docs/manifest.md, "Guardrails"):
 * the rule, the object (or, for the rules per account, `account`), the value the plan gives it
 * and the limit, in words and currency units. `allowed` when `--allow RULE` lifted the rule for
 * the run; a mandatory violation not allowed stops the plan.
 */
export interface GuardrailViolation {
  rule: string;
  /** The resource's address; `account` for the rules over a whole account. */
  address: string;
  /** The account plan's key. */
  account: string;
  /** The API field at fault (`daily_budget_amount_local_micro`), when the rule is about one. */
  attribute?: string;
  enforcement: 'mandatory' | 'advisory';
  value: string;
  limit: string;
  allowed: boolean;
  /** Where the value is written in the manifest, when it is. */
  source?: SourceRange;
}

/**
 * How a serving object is kept from serving wider than the manifest while the writes under it go
 * out: `created-paused` (created paused, activated after them), `kept-paused` (activated after
 * them), `atomic` (its changes of `kinds` go in one all-or-nothing request), `paused-for-change`
 * (too many for one request: paused for them, then resumed).
 */
export interface ServingNote {
  address: string;
  how: 'created-paused' | 'kept-paused' | 'atomic' | 'paused-for-change';
  /** The kinds written under it that it waits for, or that go together (sorted). */
  kinds: ResourceKind[];
}

export interface Plan {
  formatVersion: string;
  /** `plan` or `destroy`. */
  mode: 'plan' | 'destroy';
  accounts: AccountPlan[];
  /** Problems that make the plan unusable (prevent_destroy, lookups); apply refuses such a plan. */
  diagnostics: Diagnostic[];
  /**
   * What the guardrails of `adsctl.yaml` found (src/guardrails/), set by the engine once the
   * plan is built and again when a saved plan is applied; absent before they were checked.
   */
  guardrails?: GuardrailViolation[];
  /** The rules `--allow` lifted for the run that made (or applies) the plan; absent when none. */
  allowed?: string[];
}
