/**
 * The kind descriptor: everything adsctl knows about one kind of resource, in one place, in the
 * manner of a Terraform provider's resource schema (see docs/architecture.md). The manifest
 * checks, refresh, diff, plan, apply, import and render read descriptors; none of them knows a
 * kind by name. Descriptors are registered in a `Record<ResourceKind, KindDescriptor>`
 * (registry.ts), so a kind without every part does not compile.
 */
import type { AdsApi } from '../api/ads-api.js';
import type { ResourceName } from '../api/resources.js';
import type { FieldRule } from './attribute.js';
import type { FileLimit } from './local-file.js';
import type { EntryReader, ItemIdentity } from './manifest-reading.js';
import type { ResourceKind } from './kind.js';
import type { WriteBack } from './write-back.js';

/**
 * How the manifest writes the kind's fields (the `$defs` entry `def` of
 * schemas/manifest.schema.json): copied as written, read as exact ids, money in currency units
 * or micros, timestamps, references by logical name, fields the kind's own loading code reads,
 * and the child collections.
 */
export interface ManifestFields {
  def: string;
  /** Copied into attributes as written (scalars, lists, maps). */
  plain: readonly string[];
  /** Ids: strings, or unquoted integers read digit for digit. */
  ids: readonly string[];
  /** Short money name → API micros field; either may be written, not both. */
  money: Readonly<Record<string, string>>;
  times: readonly string[];
  /** Reference name → the API field it fills and the top-level collection whose names it takes. */
  refs: Readonly<Record<string, { field: string; collection: string }>>;
  /** Fields the kind reads itself (`read`, `identity`): an identity, a file, nested settings. */
  special: readonly string[];
  /** Child collections, in the order the manifest reads them (the registry adds those of kinds that name this one as parent). */
  children: readonly string[];
  /** The root kind only: the file's top-level sections in the order they are read (the registry adds the rest). */
  sections?: readonly string[];
  /**
   * How an entry of a `value`-keyed collection is written: `item` (default) — a list item, the
   * key field's value itself or a map of fields; `map` — an entry `<key>: <value>` of a map, the
   * value filling the field named here (`granted_account_id: permission_level`).
   */
  entries?: { form: 'item' } | { form: 'map'; valueField: string };
  /** Reads the fields the kind reads itself (its `special` fields: a file, content naming media, ...), after the others. */
  read?: EntryReader;
  /** For list items keyed by what they name: the key and the reference (a post of the manifest, an uploaded video). */
  identity?: ItemIdentity;
  /** The code of a second entry with the same key (default `duplicate-entry`). */
  duplicate?: string;
  /** Top-level collections named by logical name inside values (a card component's media). */
  named?: readonly string[];
}

/**
 * Where the kind sits in a manifest: the collection that holds it under its parent and how its
 * key is made. `name`: a map of logical names; `single`: at most one under its parent, addressed
 * by the collection alone (`do_not_reach`, `custom_audiences.newsletter.users`); `value`: a list
 * keyed by one field's value (the post id of a promoted post); `targeting`: keyed by type,
 * operator and value; `root`: the account itself.
 */
type AddressShape =
  | { collection: string; key: 'name' }
  | { collection: string; key: 'single' }
  | { collection: string; key: 'value'; field: string }
  | { collection: string; key: 'targeting' }
  | { collection: string; key: 'feature' }
  | { collection: ''; key: 'root' };

/**
 * How refresh reads the kind:
 * - `account`: the account record itself; `features`: the account's granted feature keys;
 * - `list`: its list endpoint at the largest page. `scope` `ids` reads only bound ids (through
 *   `idsParam`, 200 a request) or the whole list when that is cheaper; `whole` always reads the
 *   account's whole list (its records count towards account limits, or give currencies);
 *   `parent` reads by the bound parents' ids through `parentParam` (only parents for which
 *   `parentWhere` holds; the whole list when there are many parents, unless the filter is
 *   `required`). `always`: read whenever the account is (funding instruments give every amount
 *   its currency).
 * - `custom`: the kind's own reader, given the bound ids and the bound parents that exist (for
 *   endpoints nested under a parent, or without an id filter); records are keyed by `idField`.
 */
export type ReadSpec =
  | { via: 'account' }
  | { via: 'features' }
  | {
      via: 'custom';
      read: (api: AdsApi, accountId: string, scope: { bound: ReadonlySet<string>; parents: readonly string[] }) => Promise<Array<Record<string, unknown>>>;
      /** The record field that holds its id (default `id`). */
      idField?: string;
      /** Every record of the account, for a kind directly under it (`adsctl generate` reads whole accounts). */
      whole?: (api: AdsApi, accountId: string) => Promise<Array<Record<string, unknown>>>;
    }
  | {
      via: 'list';
      resource: ResourceName;
      idsParam: string;
      /** The endpoint's largest page. */
      pageSize: number;
      scope: 'ids' | 'whole' | 'parent';
      parentParam?: string;
      parentWhere?: (parent: Readonly<Record<string, unknown>>) => boolean;
      required?: true;
      always?: true;
      /** List flags the kind needs (drafts are hidden unless asked for). */
      flags?: Readonly<Record<string, boolean>>;
    };

/** One write as apply sends it: the live id (update, delete) and the resolved parameters. */
export interface WriteItem {
  id?: string;
  params: Record<string, unknown>;
  /** The resource's address (for messages, and for what is kept beside the state per resource). */
  address: string;
}

/** A file kept beside the state for one resource: where it is, where earlier releases kept it, and whom it must name. */
interface SidecarFile {
  path: string;
  legacyPath: string;
  owner: { address: string; id: string };
  /** The database that keeps it instead, when the state is in one. */
  rows?: {
    where: string;
    read(name: string): Promise<Buffer | undefined>;
    write(name: string, bytes: Buffer): Promise<void>;
    remove(name: string): Promise<void>;
    names(): Promise<string[]>;
  };
}

/**
 * What a write may need beyond the API: the account's files (media, member lists) and what is
 * kept beside its state (the members last uploaded). Given by apply.
 */
export interface WriteContext {
  /**
   * Reads a file the manifest names (relative to the manifest's folder); rejects with a
   * `LocalWriteError` that says why unless it is a regular file inside the project root within
   * `limit` (local-file.ts).
   */
  readFile: (path: string, limit: FileLimit) => Promise<Buffer>;
  /** The absolute path of a file the manifest names (`.`: the manifest's folder). */
  filePath: (path: string) => string;
  /** Where the file kept beside the state for the resource at `address`, bound to `id`, lives (its members last uploaded). */
  sidecarPath: (address: string, id: string) => SidecarFile;
  /** Reports progress of a long write (an upload, a membership sync) in words. */
  progress: (address: string, message: string) => void;
  /**
   * Sends a membership's members (src/members/sync.ts), for the members descriptors: given by
   * apply, so that kinds/ imports no stage above it. A context that writes no membership (a test
   * of another kind's write) may leave it out.
   */
  syncMembers?: MembersSync;
}

/** The users endpoint a membership is sent through: an audience's or the do-not-reach list's. */
export type MembersEndpoint = 'audience' | 'do_not_reach';

/**
 * Makes the members of the audience or list `item.params[parentField]` what the member file says,
 * or none when `removeAll` (the membership is deleted), sending only the difference; answers the
 * membership's id (its parent's).
 */
export type MembersSync = (endpoint: MembersEndpoint, api: AdsApi, accountId: string, item: WriteItem, ctx: WriteContext, parentField: string, removeAll?: boolean) => Promise<string>;

/**
 * How one write action is sent:
 * - `single`: one request per resource (`send` answers the live id);
 * - `batch`: the batch endpoint of `resource`, `limit` items a request, updates and deletes
 *   naming the object by `idParam`;
 * - `grouped`: one request per value of `by` (the parent), `limit` items a request; `send`
 *   answers the ids in the order of the items (undefined for an item the service did not take);
 * - `list`: every item in one comma list (`limit` a request).
 */
export type WriteEndpoint =
  | {
      via: 'single';
      send: (api: AdsApi, accountId: string, item: WriteItem, ctx: WriteContext) => Promise<string>;
      /** Requests one write sends when it is more than one (an upload's segments, a membership's bodies). */
      requests?: (params: Readonly<Record<string, unknown>>) => number;
    }
  | { via: 'batch'; resource: ResourceName; limit: number; idParam: string }
  | { via: 'grouped'; by: string; limit: number; send: (api: AdsApi, accountId: string, group: string, items: readonly WriteItem[]) => Promise<Array<string | undefined>> }
  | { via: 'list'; limit: number; send: (api: AdsApi, accountId: string, items: readonly WriteItem[]) => Promise<void> };

/**
 * The write endpoints of a kind; an absent action is one the API does not have. Without `delete`
 * the service cannot take the object down (posts, media library items): a removal only releases
 * it, and a replacement creates the new object and leaves the old one on the service.
 */
interface WriteSpec {
  create: WriteEndpoint;
  update?: WriteEndpoint;
  delete?: WriteEndpoint;
}

/**
 * How a create whose answer was lost is found again: list the candidates (under the parent the
 * create names, through `filter`, or the account's whole list) and match the fields of
 * `identity` against what was sent (`defaults` fill in what the create may have left out).
 */
export interface FindSpec {
  resource: ResourceName;
  /** The list filter and the sent parameter that fills it; absent: the account's whole list. */
  filter?: readonly [param: string, from: string];
  identity: readonly string[];
  defaults?: Readonly<Record<string, unknown>>;
  flags?: Readonly<Record<string, boolean>>;
}

/**
 * How an existing object is bound: `get` — `adsctl import ADDRESS ID` reads it from `resource`;
 * `read` — through the kind's own reader (`ReadSpec` `custom`) with that id; `manifest` — only by
 * the manifest itself (an `id` field), with the hint shown otherwise.
 */
type ImportSpec = { via: 'get'; resource: ResourceName } | { via: 'read' } | { via: 'manifest'; hint: string };

/**
 * An account limit the kind's records count towards (Part A, Limits): at most `max` records of
 * the kind for which `counts` holds, in the account or per parent (`perParent`, the API field
 * naming it). Writes that free room are ordered before writes that need it.
 */
export interface AccountLimit {
  code: string;
  /** Words for messages: "active campaigns". */
  noun: string;
  max: number;
  counts: (values: Readonly<Record<string, unknown>>) => boolean;
  perParent?: string;
  /**
   * How the manifest's offline check reports a file that declares more than `max` (before any
   * live record is counted): its code, the message for the first record past the limit (at
   * `position`, of `count` that count), and the path of the root kind's field that raises `max`
   * (`['limits', 'active_campaigns']`: `account.limits.active_campaigns`).
   */
  offline?: { code: string; message: (address: string, position: number, count: number, max: number) => string; raisedBy?: readonly string[] };
}

/** A kind's daily and total budget fields (micros). */
export interface BudgetFields {
  daily: string;
  total: string;
  /**
   * Whether an object with these values spends its serving children's daily budgets, capped by its
   * own, rather than its own (a campaign under `budget_optimization: LINE_ITEM`).
   */
  spentByChildren?: (values: Readonly<Record<string, unknown>>) => boolean;
}

/** A kind's flight fields (timestamps). */
export interface FlightFields {
  start: string;
  end: string;
}

/** A value the service would refuse: the field at fault (for the position), a code and why. */
export interface RuleProblem {
  field: string;
  code: string;
  message: string;
}

/**
 * The rules across fields the service enforces on a create or an update (Terraform's
 * CustomizeDiff), checked by the plan on the values the object will have: the manifest's over the
 * live ones.
 */
export type CrossFieldRules = (values: Readonly<Record<string, unknown>>) => RuleProblem[];

/** The checks a kind's changes get against the service's lookups (see plan/validate.ts). */
export type LookupNeed = 'iab_categories' | 'curated_categories' | 'posts' | 'promotable_users' | 'targeting_values';

/**
 * A lookup a kind's changes are checked against, and the field whose values it checks: the plan
 * reads the lookup only for changes that write that field (src/plan/lookup-needs.ts).
 */
interface LookupUse {
  need: LookupNeed;
  field: string;
}

/**
 * How a kind serves (docs/architecture.md, "Serving safety"): the field that says whether it serves
 * and its serving and paused values. An object the manifest wants serving is created paused (or
 * kept paused) while the writes under it go out, and switched to serving last.
 */
export interface ServingSpec {
  field: string;
  active: string;
  paused: string;
  /** The field naming the funding instrument that pays for it: it serves only while that one is able to fund. */
  fundedBy?: string;
}

/**
 * The service targets an object of the kind only once it matches `minimum` users (Part B: a
 * custom audience, 100). `members` is the child kind whose desired value counts the members the
 * plan gives it (`count`: undefined when unknown, as for a member file that could not be read);
 * `tooSmall` tells from a live record that the service reports it not targetable for its size.
 */
export interface TargetableRule {
  minimum: number;
  members: { kind: ResourceKind; count: (values: Readonly<Record<string, unknown>>) => number | undefined };
  tooSmall: (record: Readonly<Record<string, unknown>>) => boolean;
}

/**
 * What a value of the kind targets, when the service takes the value only while its target is
 * targetable (a CUSTOM_AUDIENCE criterion's audience): the field naming the target, and the kind
 * a target named by raw id has (refresh reads it, so that the plan can check it).
 */
type TargetOf = (values: Readonly<Record<string, unknown>>) => { field: string; kind: ResourceKind } | undefined;

/** The entity types the account history covers (Part A, `GET accounts/:id/account_history`). */
export type HistoryEntity = 'CAMPAIGN' | 'LINE_ITEM' | 'PROMOTED_TWEET' | 'TARGETING_CRITERIA' | 'PROMOTED_ACCOUNT';

/** Everything adsctl knows about one kind (see the file comment). */
export interface KindDescriptor {
  kind: ResourceKind;
  /** The kind in words: "line item". */
  noun: string;
  /** The kind it sits under; absent only for the account. */
  parent?: ResourceKind;
  /** The API field of its records that names its parent, when the parent is not the account. */
  parentField?: string;
  address: AddressShape;
  manifest: ManifestFields;
  /** The API fields the diff compares, in order, with their flags. */
  attributes: readonly FieldRule[];
  /** Fields the service computes (never sent, never compared). */
  computed: readonly string[];
  /**
   * An existing object named by an `id` in the manifest is only referenced, never changed:
   * nothing of it is compared (funding instruments).
   */
  readOnlyWhenImported?: true;
  read: ReadSpec;
  write: WriteSpec;
  /** Absent: a lost create cannot be recognised and is reported. */
  find?: FindSpec;
  import: ImportSpec;
  /** A replacement deletes the old object first (frees limits and identities), or creates first. */
  replaceOrder: 'delete-first' | 'create-first';
  /** Created and deleted only in the sandbox; elsewhere a removal only releases it. */
  sandboxOnly: boolean;
  /** The service retires it with its deleted parent: no delete request of its own then. */
  retiredWithParent: boolean;
  /**
   * Its parent's manifest entry owns the collection as a whole: every member of a managed parent
   * is read, and one made outside adsctl is drift, planned for removal (unless the parent's
   * `ignore_changes` names the collection).
   */
  owned: boolean;
  /**
   * The entity type under which `GET accounts/:id/account_history` records the changes of its
   * objects (Part A: CAMPAIGN, LINE_ITEM, PROMOTED_TWEET, TARGETING_CRITERIA, PROMOTED_ACCOUNT);
   * absent for a kind the history does not cover, whose drift is shown without who made it.
   */
  history?: HistoryEntity;
  /** Where its money's currency comes from: the funding instrument it names, or its parent. */
  currency?: 'instrument' | 'parent';
  /** Its budget fields, whose changes the plan sums as spend; the daily one is at most the total, the total at most its parent's. */
  budgets?: BudgetFields;
  /** Its bid field (micros), which the `max_bid` guardrail limits (docs/manifest.md, "Guardrails") and the plan checks against the bidding rules of its currency (src/plan/validate.ts). */
  bid?: string;
  /** Its flight: the end must be after the start. */
  flight?: FlightFields;
  /** Fields every record under one parent shares (a campaign's line items share product_type and objective). */
  sharedUnderParent?: readonly string[];
  limits: readonly AccountLimit[];
  lookups: readonly LookupUse[];
  /** Rules across its fields; none for kinds whose fields are independent. */
  rules?: CrossFieldRules;
  /** It serves (spends money) while its `serving.field` holds `serving.active`: campaigns, line items. */
  serving?: ServingSpec;
  /**
   * The changes of its records under one serving parent are sent in one all-or-nothing request of
   * its batch endpoint (deletes and creates together), so that the parent never serves with half
   * of them: targeting criteria.
   */
  atomicUnderServing?: true;
  /**
   * A creative its parent carries (a promoted post or account, a media creative): under a parent
   * that serves, removals go before additions, so that it never carries old and new at once.
   */
  creative?: true;
  /**
   * A write that names its parent waits for its writes: a targeting criterion of an audience is
   * created only after the audience's members were uploaded.
   */
  readyBeforeReferences?: true;
  /**
   * Its live records are those of another kind, reached through another endpoint (another API
   * version of the same objects): a record that one of the two binds, or whose address the
   * manifest gives under one of them, is not made outside adsctl for the other, and a record
   * neither binds is reported by the other kind alone.
   */
  sameRecordsAs?: ResourceKind;
  /** The size the service needs before it targets an object of the kind (custom audiences). */
  targetable?: TargetableRule;
  /** The object a value of the kind targets, which the service needs targetable (a criterion's audience). */
  targets?: TargetOf;
  /**
   * How `adsctl generate` writes its live records back into a manifest (write-back.ts); absent: a
   * kind generate neither reads nor writes (test/kinds/kind-places.test.ts says why of each).
   */
  generate?: WriteBack;
}
