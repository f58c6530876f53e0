/**
 * A synthetic diff input of any size for the benchmark (issue 5: diff+plan CPU for 100,000
 * resources): one account drawing on an existing funding instrument, campaigns of 10 line items,
 * each line item with 5 targeting criteria and 4 promoted posts, all applied and live, with a
 * deterministic mix of what a real plan meets — about 2% of line items paused by hand (drift),
 * 1% of campaigns with a new budget (manifest edits), reordered placements (equal sets), 1% of
 * line items new in the manifest and 1% removed from it. The state's keys are in order, as in a
 * state file. Built without I/O or randomness, so
 * `diffResources(benchmarkDiffInput(n))` times the diff alone.
 */
import type { SourceRange } from '../src/diag/source-range.js';
import type { LiveResource } from '../src/live/types.js';
import { ACCOUNT_ADDRESS, childAddress, formatAddress } from '../src/manifest/address.js';
import type { DesiredResource, ResourceAddress, ResourceKind } from '../src/manifest/types.js';
import type { StateResource } from '../src/state/state-file.js';
import type { DiffInput } from '../src/diff/diff.js';

const LINE_ITEMS = 10;
const CRITERIA = 5;
const POSTS = 4;
const PER_CAMPAIGN = 1 + LINE_ITEMS * (1 + CRITERIA + POSTS);
const SOURCE: SourceRange = { file: 'bench.yaml', start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } };
const STAMP = '2026-01-01T00:00:00Z';

interface Builder {
  resources: DesiredResource[];
  live: Map<ResourceKind, Map<string, LiveResource>>;
  state: Record<string, StateResource>;
}

function add(b: Builder, address: ResourceAddress, attributes: Record<string, unknown>, references: Record<string, ResourceAddress>, parent: ResourceAddress): void {
  b.resources.push({ address, kind: address.kind, attributes, references, parent, dependsOn: [], lifecycle: { preventDestroy: false, ignoreChanges: [] }, source: SOURCE, attributeSources: {} });
}

function bind(b: Builder, address: ResourceAddress, id: string, applied: Record<string, unknown>, record: Record<string, unknown>): void {
  b.state[formatAddress(address)] = { kind: address.kind, id, applied };
  let byId = b.live.get(address.kind);
  if (byId === undefined) b.live.set(address.kind, (byId = new Map()));
  const full = { id, ...record, created_at: STAMP, updated_at: STAMP, deleted: false };
  byId.set(id, { kind: address.kind, id, record: full, fingerprint: STAMP });
}

function lineItem(b: Builder, campaign: ResourceAddress, campaignId: string, c: number, l: number): void {
  const n = c * LINE_ITEMS + l;
  const address = childAddress(campaign, 'line_items', `line_${l}`);
  const id = `l${n}`;
  const attributes = { name: `Line item ${n}`, product_type: 'PROMOTED_TWEETS', objective: 'ENGAGEMENTS', placements: ['SERVICE_TIMELINE', 'SERVICE_SEARCH'], bid_amount_local_micro: 1_250_000, start_time: STAMP, entity_status: 'PAUSED' };
  const isNew = n % 100 === 37;
  const isRemoved = n % 100 === 73;
  if (!isRemoved) add(b, address, attributes, { campaign_id: campaign }, campaign);
  if (!isNew) {
    const applied = { ...attributes, campaign_id: campaignId, placements: ['SERVICE_SEARCH', 'SERVICE_TIMELINE'], categories: [] };
    const status = n % 50 === 11 ? 'ACTIVE' : 'PAUSED';
    bind(b, address, id, applied, { ...applied, placements: ['SERVICE_TIMELINE', 'SERVICE_SEARCH'], entity_status: status, goal: 'ENGAGEMENT', bid_strategy: 'AUTO', currency: 'USD', servable: true });
  }
  for (let t = 0; t < CRITERIA; t++) {
    const value = `keyword_${n}_${t}`;
    const criterion = childAddress(address, 'targeting', `BROAD_KEYWORD:${value}`);
    const criterionAttributes = { targeting_type: 'BROAD_KEYWORD', targeting_value: value, operator_type: 'EQ' };
    if (!isRemoved) add(b, criterion, criterionAttributes, { line_item_id: address }, address);
    if (!isNew) bind(b, criterion, `t${n}_${t}`, { ...criterionAttributes, line_item_id: id }, { ...criterionAttributes, line_item_id: id, name: value });
  }
  for (let p = 0; p < POSTS; p++) {
    const tweetId = String(1346184843436720128n + BigInt(n * POSTS + p));
    const post = childAddress(address, 'promoted_posts', tweetId);
    if (!isRemoved) add(b, post, { tweet_id: tweetId }, { line_item_id: address }, address);
    if (!isNew) bind(b, post, `p${n}_${p}`, { tweet_id: tweetId, line_item_id: id }, { tweet_id: tweetId, line_item_id: id, entity_status: 'ACTIVE', approval_status: 'ACCEPTED' });
  }
}

/** `record` with its keys in order, as a state file read from disk has them (writeState sorts). */
function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  const sorted: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) sorted[key] = record[key] as T;
  return sorted;
}

/** A plan-mode diff input of about `resources` resources (see the file comment). */
export function benchmarkDiffInput(resources: number): DiffInput {
  const b: Builder = { resources: [], live: new Map(), state: {} };
  const accountId = 'bench0account';
  add(b, ACCOUNT_ADDRESS, { name: 'Benchmark' }, {}, ACCOUNT_ADDRESS);
  bind(b, ACCOUNT_ADDRESS, accountId, { name: 'Benchmark' }, { name: 'Benchmark' });
  const instrument = childAddress(ACCOUNT_ADDRESS, 'funding_instruments', 'main');
  add(b, instrument, {}, {}, ACCOUNT_ADDRESS);
  bind(b, instrument, 'fi0', {}, { type: 'CREDIT_CARD', currency: 'USD' });
  b.resources[b.resources.length - 1]!.importId = 'fi0';
  const campaigns = Math.max(1, Math.round((resources - 2) / PER_CAMPAIGN));
  for (let c = 0; c < campaigns; c++) {
    const address = childAddress(ACCOUNT_ADDRESS, 'campaigns', `campaign_${c}`);
    const id = `c${c}`;
    const applied = { name: `Campaign ${c}`, funding_instrument_id: 'fi0', budget_optimization: 'CAMPAIGN', standard_delivery: true, daily_budget_amount_local_micro: 50_000_000, total_budget_amount_local_micro: 5_000_000_000, entity_status: 'PAUSED' };
    const daily = c % 100 === 5 ? 60_000_000 : 50_000_000;
    add(b, address, { name: `Campaign ${c}`, daily_budget_amount_local_micro: daily, total_budget_amount_local_micro: 5_000_000_000, entity_status: 'PAUSED' }, { funding_instrument_id: instrument }, ACCOUNT_ADDRESS);
    bind(b, address, id, applied, { ...applied, currency: 'USD', servable: false, reasons_not_servable: ['PAUSED_BY_ADVERTISER'] });
    for (let l = 0; l < LINE_ITEMS; l++) lineItem(b, address, id, c, l);
  }
  return {
    desired: { file: 'bench.yaml', key: accountId, accountId, resources: b.resources },
    live: { account: accountId, accountId, currencies: { fi0: 'USD' }, resources: b.live, missing: new Set() },
    state: { format_version: 1, account: accountId, account_id: accountId, endpoint: 'local', serial: 1, resources: sortedByKey(b.state) },
    mode: 'plan',
  };
}
