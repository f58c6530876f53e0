/**
 * The diff model (docs/architecture.md): per resource an action and per attribute a change, each change
 * telling whether the manifest moved away from what was last applied (`manifest`) or the live
 * value did (`drift`). Pure data; it knows nothing of output.
 */
import type { SourceRange } from '../diag/source-range.js';
import type { ChangeAttribution } from '../live/attribution.js';
import type { ResourceAddress, ResourceKind } from '../manifest/types.js';

export type Action = 'create' | 'update' | 'replace' | 'delete' | 'noop';

export type Origin = 'manifest' | 'drift';

/**
 * A value not known until apply: the id of the resource at the address `$ref` (its text form),
 * which is yet to be created, written after `prefix` when the API wants the id in another form
 * (`card://` for a card URI).
 */
interface UnknownRef {
  $ref: string;
  prefix?: string;
}

export function isUnknownRef(value: unknown): value is UnknownRef {
  return typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string';
}

/** One attribute that differs (API field name as `path`). */
export interface AttributeChange {
  path: string;
  /** The live value (undefined when creating). */
  before: unknown;
  /** The desired value (undefined when deleting); may be an `UnknownRef`. */
  after: unknown;
  origin: Origin;
  /** The API cannot update this field: the resource must be replaced. */
  forcesReplacement: boolean;
  /**
   * On a `drift` change whose manifest value moved too: the value adsctl last applied, which the
   * live value moved away from (otherwise `after` is that value and this is absent).
   */
  applied?: unknown;
}

/**
 * Why a resource has its action:
 * - `new`: in the manifest, not bound in state; `import`: bound by an import entry;
 * - `deleted_outside`: bound in state but gone from the service (recreated if still wanted,
 *   forgotten if not);
 * - `removed`: bound in state, no longer in the manifest;
 * - `added_outside`: a member of an owned collection made outside adsctl (extras.ts);
 * - `replace_field`: a field the API cannot update changed; `replace_parent`: its parent is
 *   being replaced, and the parent id cannot be updated;
 * - `released`: destroy leaves it in place and only stops managing it (an account or funding
 *   instrument adsctl did not create, or any sandbox-only object on a production endpoint).
 */
export type ChangeReason = 'new' | 'import' | 'deleted_outside' | 'added_outside' | 'removed' | 'replace_field' | 'replace_parent' | 'released';

export interface ResourceChange {
  /** Account key (manifest/state). */
  account: string;
  address: ResourceAddress;
  kind: ResourceKind;
  action: Action;
  /** The bound live id (not for creates). */
  id?: string;
  /** Managed attributes as they are live (null when there is no live object). */
  before: Record<string, unknown> | null;
  /** Managed attributes as the manifest wants them (null when deleting); may hold `UnknownRef`s. */
  after: Record<string, unknown> | null;
  /**
   * The attributes that change. Empty on a create, every attribute of whose `after` is set from
   * the manifest: `attributeChanges` (attribute-changes.ts) lists them when asked.
   */
  changes: AttributeChange[];
  reason?: ChangeReason;
  /** Some attribute changed outside adsctl. */
  drift: boolean;
  /** `prevent_destroy` from the manifest or recorded in state. */
  protected: boolean;
  /** The resource's range in the manifest (absent for resources only in state). */
  source?: SourceRange;
  /** Currency of the resource's money fields, when it has any. */
  currency?: string;
  /**
   * Who changed it outside adsctl, newest first, from the account history (src/live/attribution.ts);
   * set by the engine after the diff on a drifted object of a kind the history covers, when read.
   */
  attribution?: ChangeAttribution[];
}
