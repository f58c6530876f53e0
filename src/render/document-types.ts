/**
 * The JSON plan document (docs/architecture.md), modelled on `terraform show -json`: what `plan --json`
 * prints and what every human format is rendered from, so the text, the Markdown and the JSON
 * never disagree. Field names are snake_case as in Terraform's format; `schemas/plan.schema.json`
 * describes every field and the tests hold the two together.
 */
import type { ChangeReason } from '../diff/types.js';
import type { UnknownMask } from './unknowns.js';

/**
 * Version of this document's shape: the minor grows when fields are added, the major when any
 * changes. 2.0: values known only after apply left `after` for `after_unknown`; 2.1: `serving`;
 * 2.2: `summary.import`, `summary.move`, `moved`, `removed`; 2.3: `guardrails`, `attribution`,
 * the accounts' `name`; 2.4: serving spend in `spend` (`serving_daily_before`, `serving_daily_after`,
 * `dormant_daily_after`, `committed_total_after`); 2.5: `serving` on each `unmanaged` object;
 * 2.6: `serving_without_creative`; 2.7: `value_names`; 2.8: `unmanaged_children`.
 */
export const PLAN_DOCUMENT_FORMAT_VERSION = '2.8';

/** Terraform's action lists: `["delete","create"]` is a replacement, old object first. */
export type DocumentActions = ['create'] | ['update'] | ['delete'] | ['delete', 'create'] | ['no-op'];

/** One changed attribute, by API field name; values are JSON. */
export interface DocumentAttributeChange {
  path: string;
  before: unknown;
  /** The known part of the desired value (see `knownPart`); null when it is wholly unknown. */
  after: unknown;
  /** Only when part or all of `after` is known only after apply: where (see `UnknownMask`). */
  after_unknown?: UnknownMask;
  /** `manifest`: the manifest moved from what was last applied; `drift`: the live value did. */
  origin: 'manifest' | 'drift';
  forces_replacement: boolean;
  /** On a drift change whose manifest value moved too: the value last applied, which the live value moved away from. */
  applied?: unknown;
}

/** The change of one resource: Terraform's `change` object plus the per-attribute list. */
export interface DocumentChange {
  actions: DocumentActions;
  /** Managed attributes as they are live; null when there is no live object. */
  before: Record<string, unknown> | null;
  /** Managed attributes as the manifest wants them, the ones known only after apply left out; null when deleting. */
  after: Record<string, unknown> | null;
  /** Where `after` is known only after apply, as Terraform's `after_unknown`; `{}` when nothing is unknown. */
  after_unknown: { [key: string]: UnknownMask };
  attributes: DocumentAttributeChange[];
}

/** One entry of `resource_changes`. */
export interface DocumentResourceChange {
  address: string;
  account: string;
  /** The resource kind. */
  type: string;
  /** The bound live id; null when the object does not exist yet. */
  id: string | null;
  change: DocumentChange;
  /** Some attribute moved outside adsctl, or the object was deleted outside it. */
  drift: boolean;
  reason: ChangeReason | null;
  /** Currency of the money fields (`*_local_micro`); null when the resource has none. */
  currency: string | null;
  /** `prevent_destroy` applies. */
  protected: boolean;
  /** For a child deleted by the service with its line item (no request of its own): that line item's address. */
  deleted_with: string | null;
  /**
   * What the service's lookups call a value of the change, by attribute (`targeting_value` →
   * `San Francisco, CA`): the renderers show it beside the value. Absent when the plan looked none up.
   */
  value_names?: Record<string, string>;
  /** How a serving object is kept from serving wider while this change goes out; absent when there is nothing to keep. */
  serving?: DocumentServing;
  /** On a drifted resource: who changed it outside adsctl, from the account's history, newest first; absent when not read. */
  attribution?: DocumentAttribution[];
}

/** One change made outside adsctl, as the account history records it (docs/architecture.md, "Who changed it"). */
export interface DocumentAttribution {
  /** The user who made it; null when the history does not say. */
  user_id: string | null;
  /** Where it was made (the history's `change_by.platform`). */
  platform: string;
  /** When, in UTC (ISO 8601). */
  change_time: string;
  /** What the change did, as the history says: `CREATE`, `UPDATE` or `DELETE`. */
  change_type: string;
  /** On an update: the API fields it changed (sorted), so each drifted attribute names its own change. */
  fields?: string[];
  /** The user's screen name, when the API lists the user. */
  screen_name?: string;
}

/**
 * How serving safety applies to a resource change (docs/architecture.md, "Serving safety"): on
 * a serving object, `created-paused` or `kept-paused` until the writes of `kinds` under it
 * succeeded; on a child, `atomic` (sent in one all-or-nothing request with the other changes of
 * its kind under `parent`) or `paused-for-change` (`parent` is paused while they go out).
 */
export interface DocumentServing {
  how: 'created-paused' | 'kept-paused' | 'atomic' | 'paused-for-change';
  kinds: string[];
  parent?: string;
}

/** Terraform's counts: a replacement is one add and one destroy. */
export interface DocumentSummary {
  add: number;
  change: number;
  destroy: number;
  /** Resources changed outside adsctl. */
  drift: number;
  /** Resources an import binds (an `import` entry, or a child adopted under one); absent when none. */
  import?: number;
  /** `moved` entries the plan makes; absent when none. */
  move?: number;
}

/** A `moved` entry the plan makes: the state at `from`, and under it (`count` entries in all), moves to `to`. */
export interface DocumentMove {
  account: string;
  from: string;
  to: string;
  type: string;
  /** The live id at `from`; null when only entries under it are in the state. */
  id: string | null;
  count: number;
}

/** A `removed` entry the plan makes: the state at `address`, and under it (`count` entries), is forgotten; the live objects stay. */
export interface DocumentRemoval {
  account: string;
  address: string;
  type: string;
  id: string | null;
  count: number;
}

/** Requests made to read live state and requests the plan will send. */
export interface DocumentRequests {
  reads: number;
  writes: number;
  /** Of the writes, requests to batch endpoints. */
  batches: number;
}

/** The change in spend of one currency: micros exactly, and the same as a decimal string. */
export interface DocumentSpend {
  currency: string;
  /** The change of the daily budgets as written, whatever their status. */
  daily_micros: number;
  total_micros: number;
  daily: string;
  total: string;
  /** Serving spend per day before and after the plan, and the daily budgets that exist after it and do not serve (absent in a refresh-only plan). */
  serving_daily_before_micros?: number;
  serving_daily_after_micros?: number;
  dormant_daily_after_micros?: number;
  serving_daily_before?: string;
  serving_daily_after?: string;
  dormant_daily_after?: string;
  /** What the campaigns that serve after the plan commit over their flights, and whether a flight without an end was counted for 30 days (absent in a refresh-only plan). */
  committed_total_after_micros?: number;
  committed_total_after?: string;
  committed_open_ended?: boolean;
}

/** One account of the plan, with its own counts, requests and spend. */
export interface DocumentAccount {
  key: string;
  id: string | null;
  /** The account's name (the manifest's, else the service's); absent when neither gives one. */
  name?: string;
  endpoint: string;
  summary: DocumentSummary;
  requests: DocumentRequests;
  spend: DocumentSpend[];
}

/** A position in a manifest (1-based line and column, 0-based offset). */
interface DocumentPosition {
  line: number;
  column: number;
  offset: number;
}

/** A span of a manifest file. */
export interface DocumentRange {
  file: string;
  start: DocumentPosition;
  end: DocumentPosition;
}

/** A problem found while planning; the same fields as `Diagnostic`. */
export interface DocumentDiagnostic {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  range: DocumentRange | null;
  related: Array<{ message: string; range: DocumentRange }>;
}

/**
 * A live campaign or line item adsctl does not manage (docs/manifest.md, "Objects not managed by
 * adsctl"): the fields the JSON plan's contract fixes first, in its order (docs/architecture.md,
 * "Contracts the code relies on"), then the account, the address of the managed parent, the
 * money's currency and whether it appeared since the last apply (drift).
 */
export interface DocumentUnmanaged {
  type: string;
  id: string;
  name: string | null;
  entity_status: string | null;
  parent_id: string | null;
  daily_budget_amount_local_micro: number | null;
  account: string;
  parent_address: string | null;
  currency: string;
  /** Not recorded as unmanaged at the last apply: `plan --refresh-only --detailed-exitcode` exits 2 for it. */
  drift: boolean;
  /** It serves (format 2.5): its daily budget counts as spend not managed by adsctl; otherwise it is dormant. */
  serving: boolean;
  /** On one that appeared since the last apply: who made or changed it, newest first, from the account's history; absent when not read. */
  attribution?: DocumentAttribution[];
}

/**
 * A live object adsctl does not manage under one the plan deletes or replaces (format 2.8): a line
 * item made by hand in a campaign a destroy deletes. The fields of `DocumentUnmanaged` that say
 * what it is and spends, its parent's address, and `with_parent`: what deleting the parent does
 * to it, as the service's specification says for its kind — `goes` (deleted with it) or `stays`
 * (left under a deleted parent, which no later plan reads).
 */
export interface DocumentUnmanagedChild {
  type: string;
  id: string;
  name: string | null;
  entity_status: string | null;
  parent_id: string | null;
  daily_budget_amount_local_micro: number | null;
  account: string;
  parent_address: string;
  currency: string;
  serving: boolean;
  with_parent: 'goes' | 'stays';
}

/**
 * What a guardrail of adsctl.yaml says about the plan (docs/manifest.md, "Guardrails"): the
 * rule, the object (`account` for the rules over a whole account), the value the plan gives and
 * the limit, in words and currency units; `allowed` when `--allow` lifted the rule for the run.
 */
export interface DocumentGuardrail {
  rule: string;
  address: string;
  enforcement: 'mandatory' | 'advisory';
  value: string;
  limit: string;
  allowed: boolean;
  /** The key of the account plan it was found in. */
  account: string;
  /** The API field at fault; null when the rule is about the object or the account as a whole. */
  attribute: string | null;
  /** Where the object is written in the manifest; null when it is not. */
  range: DocumentRange | null;
}

/**
 * A campaign or line item that serves with no creative though the manifest gives it some (format
 * 2.6): an apply stopped between removing its old creatives and adding the new left it so. The
 * apply adds `repaired_by` before any other write of its account.
 */
export interface DocumentWithoutCreative {
  /** The key of the account plan it is in. */
  account: string;
  address: string;
  type: string;
  id: string;
  /** The addresses of the creatives added to it first. */
  repaired_by: string[];
}

/** The whole document; keys are written in this order. */
export interface PlanDocument {
  format_version: string;
  mode: 'plan' | 'destroy';
  /** What serves with no creative, first, accounts in plan order; absent when nothing does. */
  serving_without_creative?: DocumentWithoutCreative[];
  accounts: DocumentAccount[];
  resource_changes: DocumentResourceChange[];
  summary: DocumentSummary;
  requests: DocumentRequests;
  spend: DocumentSpend[];
  diagnostics: DocumentDiagnostic[];
  /** What the guardrails of adsctl.yaml found, accounts in plan order; `[]` when nothing (or no guardrails are set). */
  guardrails: DocumentGuardrail[];
  /** The rules `--allow` lifted for the run, sorted; absent when none. */
  guardrails_allowed?: string[];
  /** The `moved` entries the plan makes, accounts in plan order; absent when there are none. */
  moved?: DocumentMove[];
  /** The `removed` entries the plan makes; absent when there are none. */
  removed?: DocumentRemoval[];
  /** Live objects adsctl does not manage, accounts in plan order; absent when there are none. */
  unmanaged?: DocumentUnmanaged[];
  /** Those under an object the plan deletes, and what the deletion does to them, accounts in plan order; absent when there are none. */
  unmanaged_children?: DocumentUnmanagedChild[];
}

/** The document without its resource changes: what a renderer reads before it reaches them (plan-document.ts). */
export type PlanDocumentHead = Omit<PlanDocument, 'resource_changes'>;

/** What a renderer knows of a resource change before it is built: the fields that count it and say whether it is shown. */
export interface ChangeFacts {
  change: { actions: DocumentActions };
  drift: boolean;
  type: string;
  reason: ChangeReason | null;
}

/**
 * One account of a streamed plan document: its entry, the facts of its resource changes, and the
 * changes themselves, each built only when an iteration reaches it.
 */
export interface StreamedAccount {
  account: DocumentAccount;
  /** The facts of the account's resource changes, in document order. */
  facts: readonly ChangeFacts[];
  /** The account's resource changes in document order, those whose facts `which` accepts (all by default). */
  changes: (which?: (facts: ChangeFacts) => boolean) => Generator<DocumentResourceChange>;
}

/**
 * The plan document with its resource changes made one at a time: the renderers print a large
 * plan a block at a time, so the document of 100,000 changes never exists whole beside its text.
 */
export interface PlanDocumentStream {
  head: PlanDocumentHead;
  /** The accounts of `head.accounts`, in the same order. */
  accounts: StreamedAccount[];
}
