/**
 * The desired state: what the manifests say each account should contain, in the API's terms.
 * It is the contract between loading and every later stage (graph, diff, plan, apply): plain
 * data, addresses already parsed, money already in micros, and a source range for every
 * resource and attribute so any later diagnostic can point back into the YAML.
 */
import type { SourceRange } from '../diag/source-range.js';

import type { ResourceKind } from '../kinds/kind.js';

export type { ResourceKind };

/** One step of an address: the collection a resource sits in and its key there. */
export interface AddressStep {
  collection: string;
  key: string;
}

/**
 * Where a resource sits in its account's manifest, parsed once (see address.ts for the text
 * form). The account itself has no steps.
 */
export interface ResourceAddress {
  kind: ResourceKind;
  steps: AddressStep[];
}

/**
 * A reference by logical name inside an attribute's value (the media of a card component, each
 * media of a post): resolved, like a whole-field reference, to the target's id or to a value
 * known only after apply.
 */
export interface NamedReference {
  $target: ResourceAddress;
}

/** True when `value` is a `NamedReference`. */
export function isNamedReference(value: unknown): value is NamedReference {
  return typeof value === 'object' && value !== null && typeof (value as { $target?: unknown }).$target === 'object';
}

/** True when a `NamedReference` sits anywhere in `value`. */
export function holdsNamedReference(value: unknown): boolean {
  if (isNamedReference(value)) return true;
  if (Array.isArray(value)) return value.some(holdsNamedReference);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsNamedReference);
  return false;
}

/**
 * The lifecycle meta-arguments of a resource. Read-only: the resources that set none (nearly all)
 * share one default, so a reader that sets some gives the resource a lifecycle of its own.
 */
export interface Lifecycle {
  /** A plan that would delete or replace the resource must fail. */
  readonly preventDestroy: boolean;
  /** API field names whose differences are ignored. */
  readonly ignoreChanges: readonly string[];
}

/**
 * One resource as the manifest wants it.
 * - `attributes` use API field names; money is integer micros; timestamps are UTC `...Z`; ids are
 *   strings. Only what the manifest says is here: API defaults are not filled in.
 * - `references` map an API field whose value is another resource's id to that resource's
 *   address (`funding_instrument_id` → `funding_instruments.main`, `campaign_id` → the parent
 *   campaign, `line_item_id` → the parent line item, `targeting_value` → a custom audience,
 *   `card_uri` → a card). A raw id written under the API field name stays in `attributes`.
 *   References inside a value are `NamedReference`s in `attributes`, and are also listed here
 *   under a path (`components[0].media_key`) so every edge of the resource is in one place.
 * - `dependsOn` holds only the explicit `depends_on` entries; parents and references are edges too.
 *   Read-only, like `lifecycle`: the resources without entries share one empty list.
 * - `importId` binds the resource to an existing object (an `import` entry, or the `id` of the
 *   account, of a funding instrument or of a media library item: then `namedById`, a named object
 *   the plan does not count as an import).
 * - `source` spans the resource's key (or list item) and value; `attributeSources` has the value
 *   range of every attribute and reference written, plus `lifecycle.prevent_destroy`,
 *   `lifecycle.ignore_changes`, `depends_on[i]` and `import` for the meta-arguments.
 */
export interface DesiredResource {
  address: ResourceAddress;
  kind: ResourceKind;
  attributes: Record<string, unknown>;
  references: Record<string, ResourceAddress>;
  parent?: ResourceAddress;
  dependsOn: readonly ResourceAddress[];
  lifecycle: Lifecycle;
  importId?: string;
  namedById?: true;
  source: SourceRange;
  attributeSources: Record<string, SourceRange>;
}

/**
 * A `moved` entry: the state at `from`, and everything under it, belongs to `to` from now on (same
 * kind); `source` spans the entry, where a move that cannot be made is reported.
 */
export interface MovedEntry {
  from: ResourceAddress;
  to: ResourceAddress;
  source: SourceRange;
}

/** An `import` entry that binds a resource of the manifest: the address, the id, the entry's range. */
export interface ImportEntry {
  address: ResourceAddress;
  id: string;
  source: SourceRange;
}

/** A `removed` entry: the state at `from`, and everything under it, is forgotten; the live objects stay. */
export interface RemovedEntry {
  from: ResourceAddress;
  source: SourceRange;
}

/**
 * One account: one manifest file. `key` is the account id when the manifest gives one, else the
 * file path; `endpoint` is as written (local, sandbox, production or a URL).
 */
export interface DesiredAccount {
  file: string;
  key: string;
  endpoint?: string;
  accountId?: string;
  resources: DesiredResource[];
  /**
   * `unmanaged: ignore`: the plan neither reads nor lists the objects of the account that adsctl
   * does not manage; absent for the default, `report`.
   */
  unmanaged?: 'ignore';
  /** The `import` entries that bind a resource, in file order (absent when there are none). */
  imports?: ImportEntry[];
  /** The `moved` entries, in file order (absent when there are none). */
  moved?: MovedEntry[];
  /** The `removed` entries, in file order (absent when there are none). */
  removed?: RemovedEntry[];
}

/** Every account of one invocation, in file order. */
export interface DesiredState {
  accounts: DesiredAccount[];
}
