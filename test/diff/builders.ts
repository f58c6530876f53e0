/**
 * Builders for diff tests: desired resources, live records shaped as the emulator answers them,
 * and state entries, all in code and addressed by address text.
 */
import type { SourceRange } from '../../src/diag/source-range.js';
import type { DiffInput } from '../../src/diff/diff.js';
import type { ResourceChange } from '../../src/diff/types.js';
import { ACCOUNT_ADDRESS, formatAddress, parseAddress } from '../../src/manifest/address.js';
import type { DesiredAccount, DesiredResource, ResourceAddress, ResourceKind } from '../../src/manifest/types.js';
import type { LiveAccount, LiveResource } from '../../src/live/types.js';
import type { AccountState, StateResource } from '../../src/state/state-file.js';

export const FILE = 'account.yaml';
export const ACCOUNT_KEY = '18ce54d4x5t';

/** A source range on `line` of the test manifest. */
export function at(line: number, column = 1): SourceRange {
  return { file: FILE, start: { line, column, offset: line * 100 + column }, end: { line, column: column + 10, offset: line * 100 + column + 10 } };
}

/** The parsed address of `text` (throws on a malformed one: a bug in the test). */
export function addr(text: string): ResourceAddress {
  const parsed = parseAddress(text);
  if (parsed.value === undefined) throw new Error(`bad address ${text}`);
  return parsed.value;
}

function parentOf(address: ResourceAddress): ResourceAddress | undefined {
  if (address.steps.length === 0) return undefined;
  if (address.steps.length === 1) return ACCOUNT_ADDRESS;
  return { kind: address.steps.length === 2 ? 'campaign' : 'line_item', steps: address.steps.slice(0, -1) };
}

/** Options of a desired resource. */
export interface DesiredOptions {
  references?: Record<string, string>;
  /** `true`/`false` writes the flag (with a source range); undefined leaves it out. */
  preventDestroy?: boolean;
  ignoreChanges?: string[];
  importId?: string;
  line?: number;
}

/**
 * A desired resource at `text`. Line items reference their campaign and line item children their
 * line item, as the manifest stage does; other references come from `options.references`.
 */
export function desired(text: string, attributes: Record<string, unknown> = {}, options: DesiredOptions = {}): DesiredResource {
  const address = addr(text);
  const parent = parentOf(address);
  const references: Record<string, ResourceAddress> = {};
  if (address.kind === 'line_item' && parent !== undefined) references['campaign_id'] = parent;
  else if (address.steps.length === 3 && parent !== undefined) references['line_item_id'] = parent;
  for (const [field, target] of Object.entries(options.references ?? {})) references[field] = addr(target);
  const line = options.line ?? 1;
  const attributeSources: Record<string, SourceRange> = {};
  if (options.preventDestroy !== undefined) attributeSources['lifecycle.prevent_destroy'] = at(line + 1, 20);
  if (options.importId !== undefined) attributeSources['import'] = at(line + 2, 5);
  return {
    address,
    kind: address.kind,
    attributes: address.kind === 'targeting_criterion' && attributes['operator_type'] === undefined ? { operator_type: 'EQ', ...attributes } : attributes,
    references,
    ...(parent === undefined ? {} : { parent }),
    dependsOn: [],
    lifecycle: { preventDestroy: options.preventDestroy === true, ignoreChanges: options.ignoreChanges ?? [] },
    ...(options.importId === undefined ? {} : { importId: options.importId }),
    source: at(line),
    attributeSources,
  };
}

/** The desired account holding `resources` (the account itself is added when missing); a null id is an account yet to be created. */
export function desiredAccount(resources: DesiredResource[], id: string | null = ACCOUNT_KEY): DesiredAccount {
  const accountId = id ?? undefined;
  const hasAccount = resources.some((r) => r.kind === 'account');
  const account = desired('account', { name: 'Acme' }, accountId === undefined ? {} : { importId: accountId });
  return { file: FILE, key: ACCOUNT_KEY, ...(accountId === undefined ? {} : { accountId }), resources: hasAccount ? resources : [account, ...resources] };
}

/** One live record: its kind and wire fields (the id is `record.id`). */
export type LiveRecord = [kind: ResourceKind, record: Record<string, unknown>];

/** Live state holding `records`, with the given currencies (the funding instrument `fi1` is USD) and missing ids. */
export function liveAccount(records: LiveRecord[], options: { missing?: string[]; currencies?: Record<string, string>; accountId?: string | null } = {}): LiveAccount {
  const resources = new Map<ResourceKind, Map<string, LiveResource>>();
  for (const [kind, record] of records) {
    const id = String(record['id']);
    let byId = resources.get(kind);
    if (byId === undefined) resources.set(kind, (byId = new Map()));
    byId.set(id, { kind, id, record, fingerprint: String(record['updated_at'] ?? id) });
  }
  const accountId = options.accountId === null ? undefined : (options.accountId ?? ACCOUNT_KEY);
  return {
    account: ACCOUNT_KEY,
    accountId,
    currencies: { fi1: 'USD', ...options.currencies },
    resources,
    missing: new Set(options.missing ?? []),
  };
}

/** A state entry: id, applied values and protection; the kind comes from the address. */
export type StateSpec = { id: string; applied?: Record<string, unknown>; protected?: boolean };

/** An account state binding each address text to its entry; `fresh` leaves out the account id (an account yet to be created). */
export function accountState(entries: Record<string, StateSpec>, fresh = false): AccountState {
  const resources: Record<string, StateResource> = {};
  for (const [text, spec] of Object.entries(entries)) {
    resources[text] = { kind: addr(text).kind, id: spec.id, applied: spec.applied ?? {}, ...(spec.protected === undefined ? {} : { protected: spec.protected }) };
  }
  return { format_version: 1, account: ACCOUNT_KEY, ...(fresh ? {} : { account_id: ACCOUNT_KEY }), endpoint: 'local', serial: 1, resources };
}

/** A diff input in plan mode. */
export function planInput(resources: DesiredResource[], live: LiveAccount, state: AccountState): DiffInput {
  return { desired: desiredAccount(resources), live, state, mode: 'plan' };
}

const STAMP = '2026-01-01T00:00:00Z';

/** The account record as GET accounts/:id answers it. */
export function liveAccountRecord(overrides: Record<string, unknown> = {}): LiveRecord {
  return ['account', { id: ACCOUNT_KEY, name: 'Acme', industry_type: null, timezone: 'America/Los_Angeles', approval_status: 'ACCEPTED', created_at: STAMP, updated_at: STAMP, deleted: false, ...overrides }];
}

/** A campaign record as the emulator creates it, with `overrides`. */
export function liveCampaign(id: string, overrides: Record<string, unknown> = {}): LiveRecord {
  return [
    'campaign',
    {
      id, name: `Campaign ${id}`, funding_instrument_id: 'fi1', budget_optimization: 'CAMPAIGN', daily_budget_amount_local_micro: 50_000_000,
      total_budget_amount_local_micro: null, standard_delivery: true, entity_status: 'ACTIVE', servable: false, reasons_not_servable: [],
      effective_status: 'UNKNOWN', purchase_order_number: null, duration_in_days: null, frequency_cap: null, currency: 'USD',
      created_at: STAMP, updated_at: STAMP, deleted: false, ...overrides,
    },
  ];
}

/** A line item record as the emulator creates it, with `overrides`. */
export function liveLineItem(id: string, campaignId: string, overrides: Record<string, unknown> = {}): LiveRecord {
  return [
    'line_item',
    {
      id, campaign_id: campaignId, funding_instrument_id: 'fi1', advertiser_user_id: '756201191646691328', name: `Line item ${id}`,
      placements: ['ALL_ON_SERVICE'], product_type: 'PROMOTED_TWEETS', objective: 'ENGAGEMENTS', goal: 'ENGAGEMENT', bid_strategy: 'AUTO',
      bid_amount_local_micro: null, target_cpa_local_micro: null, pay_by: 'ENGAGEMENT', creative_source: 'MANUAL', start_time: '2026-06-01T00:00:00Z',
      end_time: null, duration_in_days: null, daily_budget_amount_local_micro: null, total_budget_amount_local_micro: null, standard_delivery: true,
      frequency_cap: null, entity_status: 'ACTIVE', automatic_tweet_promotion: null, advertiser_domain: null, primary_web_event_tag: null,
      android_app_store_identifier: null, ios_app_store_identifier: null, categories: [], currency: 'USD', created_at: STAMP, updated_at: STAMP,
      deleted: false, ...overrides,
    },
  ];
}

/** A targeting criterion record. */
export function liveCriterion(id: string, lineItemId: string, type: string, value: string, operator = 'EQ'): LiveRecord {
  return ['targeting_criterion', { line_item_id: lineItemId, name: value, id, operator_type: operator, created_at: STAMP, targeting_value: value, updated_at: STAMP, deleted: false, targeting_type: type }];
}

/** A promoted post record. */
export function livePromotedPost(id: string, lineItemId: string, tweetId: string): LiveRecord {
  return ['promoted_post', { line_item_id: lineItemId, id, entity_status: 'ACTIVE', created_at: STAMP, updated_at: STAMP, approval_status: 'ACCEPTED', tweet_id: tweetId, deleted: false }];
}

/** A line item curated category record. */
export function liveCuratedCategory(id: string, lineItemId: string, categoryId: string): LiveRecord {
  return ['line_item_curated_category', { id, line_item_id: lineItemId, curated_category_id: categoryId, created_at: STAMP, updated_at: STAMP, deleted: false }];
}

/** The change at `text` (throws when there is none: the test is wrong). */
export function changeAt(changes: readonly ResourceChange[] | undefined, text: string): ResourceChange {
  const found = changes?.find((c) => formatAddress(c.address) === text);
  if (found === undefined) throw new Error(`no change for ${text}; have ${(changes ?? []).map((c) => formatAddress(c.address)).join(', ')}`);
  return found;
}

/** `address text → action` of every change, for compact expectations. */
export function actions(changes: readonly ResourceChange[] | undefined): Record<string, string> {
  return Object.fromEntries((changes ?? []).map((c) => [formatAddress(c.address), c.action]));
}

/** Address texts of the applied scenario. */
export const A = {
  fi: 'funding_instruments.main',
  campaign: 'campaigns.summer',
  lineItem: 'campaigns.summer.line_items.us',
  criterion: 'campaigns.summer.line_items.us.targeting["BROAD_KEYWORD:sunscreen"]',
  post: 'campaigns.summer.line_items.us.promoted_posts["1346184843436720128"]',
  category: 'campaigns.summer.line_items.us.curated_categories.cat1',
} as const;

/** An account as it stands right after an apply: manifest, live records and state agree. Tests change one piece. */
export interface Scenario {
  resources: DesiredResource[];
  records: LiveRecord[];
  entries: Record<string, StateSpec>;
}

/** A fresh applied scenario: an existing instrument, a campaign, a line item with a criterion, a post and a curated category. */
export function appliedScenario(): Scenario {
  const campaign = { name: 'Summer', daily_budget_amount_local_micro: 50_000_000 };
  const lineItem = { name: 'US', product_type: 'PROMOTED_TWEETS', objective: 'ENGAGEMENTS', placements: ['ALL_ON_SERVICE'], start_time: '2026-06-01T00:00:00Z', bid_strategy: 'AUTO' };
  return {
    resources: [
      desired(A.fi, {}, { importId: 'fi1', line: 3 }),
      desired(A.campaign, campaign, { references: { funding_instrument_id: A.fi }, line: 5 }),
      desired(A.lineItem, lineItem, { line: 12 }),
      desired(A.criterion, { targeting_type: 'BROAD_KEYWORD', targeting_value: 'sunscreen' }, { line: 20 }),
      desired(A.post, { tweet_id: '1346184843436720128' }, { line: 21 }),
      desired(A.category, { curated_category_id: 'cat1' }, { line: 22 }),
    ],
    records: [
      liveAccountRecord(),
      ['funding_instrument', { id: 'fi1', type: 'CREDIT_CARD', currency: 'USD', start_time: STAMP, end_time: null, entity_status: 'ACTIVE', deleted: false }],
      liveCampaign('c1', { name: 'Summer' }),
      liveLineItem('l1', 'c1', { name: 'US' }),
      liveCriterion('t1', 'l1', 'BROAD_KEYWORD', 'sunscreen'),
      livePromotedPost('p1', 'l1', '1346184843436720128'),
      liveCuratedCategory('k1', 'l1', 'cat1'),
    ],
    entries: {
      account: { id: ACCOUNT_KEY, applied: { name: 'Acme' } },
      [A.fi]: { id: 'fi1' },
      [A.campaign]: {
        id: 'c1',
        applied: { name: 'Summer', funding_instrument_id: 'fi1', budget_optimization: 'CAMPAIGN', standard_delivery: true, daily_budget_amount_local_micro: 50_000_000, entity_status: 'ACTIVE' },
      },
      [A.lineItem]: { id: 'l1', applied: { campaign_id: 'c1', ...lineItem, entity_status: 'ACTIVE', categories: [] } },
      [A.criterion]: { id: 't1', applied: { line_item_id: 'l1', targeting_type: 'BROAD_KEYWORD', targeting_value: 'sunscreen', operator_type: 'EQ' } },
      [A.post]: { id: 'p1', applied: { line_item_id: 'l1', tweet_id: '1346184843436720128' } },
      [A.category]: { id: 'k1', applied: { line_item_id: 'l1', curated_category_id: 'cat1' } },
    },
  };
}

/** The plan-mode input of a scenario. */
export function scenarioInput(s: Scenario, options: { missing?: string[] } = {}): DiffInput {
  return planInput(s.resources, liveAccount(s.records, options), accountState(s.entries));
}

/** Replaces the live record with id `id` by `update(record)`. */
export function editLive(s: Scenario, id: string, update: (record: Record<string, unknown>) => Record<string, unknown>): void {
  s.records = s.records.map(([kind, record]) => (record['id'] === id ? [kind, update(record)] : [kind, record]));
}

/** Replaces the desired resource at `text` by `update(resource)`. */
export function editDesired(s: Scenario, text: string, update: (resource: DesiredResource) => DesiredResource): void {
  s.resources = s.resources.map((r) => (formatAddress(r.address) === text ? update(r) : r));
}
