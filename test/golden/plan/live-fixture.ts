/**
 * The live fixture of a golden plan case: the records of one account exactly as the emulator's
 * list endpoints return them, grouped by API resource, each checked against
 * schemas/wire.schema.json so a fixture cannot drift from the real wire format. The fixture is
 * served to the real `fetchLiveState` through `fixtureApi`, which answers the reads refresh makes
 * and counts them as the API client would (one request per page of 1,000, id filters cut into
 * chunks of 200), so the plan's read count is the one a real refresh would report.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { AdsApi } from '../../../src/api/ads-api.js';
import type { Params } from '../../../src/api/client.js';
import { IDS_PER_FILTER, RESOURCES, type ResourceName } from '../../../src/api/resources.js';

/** The API resources a fixture may hold, with the wire schema definition of their records. */
export const FIXTURE_KINDS = {
  account: 'Account',
  funding_instrument: 'FundingInstrument',
  campaign: 'Campaign',
  line_item: 'LineItem',
  targeting_criterion: 'TargetingCriterion',
  promoted_tweet: 'PromotedTweet',
  promoted_account: 'PromotedAccount',
  media_creative: 'MediaCreative',
  line_item_curated_category: 'LineItemCuratedCategory',
} as const;

/** An API resource name a fixture may hold records of. */
export type FixtureKind = keyof typeof FIXTURE_KINDS;

/** A wire record as JSON. */
export type WireRecord = Record<string, unknown>;

/** `live.json`: records by API resource (absent kinds hold none), plus the account's feature keys. */
export type LiveFixture = Partial<Record<FixtureKind, WireRecord[]>> & { features?: string[] };

const schema = JSON.parse(readFileSync(new URL('../../../schemas/wire.schema.json', import.meta.url), 'utf8')) as { $id: string };
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addSchema(schema);

const isFixtureKind = (key: string): key is FixtureKind => Object.hasOwn(FIXTURE_KINDS, key);

/**
 * Checks a parsed `live.json`: known kinds only, every record valid against its wire schema
 * definition, no deleted records (lists never return them) and no id twice. Returns the problems,
 * one line each, naming the file, the kind and the record.
 */
export function checkLiveFixture(fixture: unknown, file: string): string[] {
  if (typeof fixture !== 'object' || fixture === null || Array.isArray(fixture)) return [`${file}: not an object of records by kind`];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(fixture)) {
    if (key === 'features') {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) problems.push(`${file}: features must be a list of feature keys`);
      continue;
    }
    if (!isFixtureKind(key)) {
      problems.push(`${file}: unknown kind ${JSON.stringify(key)} (expected one of ${Object.keys(FIXTURE_KINDS).join(', ')}, features)`);
      continue;
    }
    if (!Array.isArray(value)) {
      problems.push(`${file}: ${key} must be a list of records`);
      continue;
    }
    const validate = ajv.getSchema(`${schema.$id}#/$defs/${FIXTURE_KINDS[key]}`);
    if (validate === undefined) throw new Error(`wire schema has no definition ${FIXTURE_KINDS[key]}`);
    const seen = new Set<string>();
    value.forEach((record: unknown, i) => {
      const label = `${file}: ${key}[${i}]`;
      if (!validate(record)) problems.push(`${label}: ${ajv.errorsText(validate.errors)}`);
      const r = record as WireRecord;
      if (r['deleted'] === true) problems.push(`${label}: deleted records are never listed; leave the record out instead`);
      const id = String(r['id']);
      if (seen.has(id)) problems.push(`${label}: id ${id} appears twice`);
      seen.add(id);
    });
  }
  return problems;
}

/** Reads and checks `live.json`; throws with every problem found. */
export function readLiveFixture(path: string): LiveFixture {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const problems = checkLiveFixture(parsed, path);
  if (problems.length > 0) throw new Error(`invalid live fixture:\n${problems.join('\n')}`);
  return parsed as LiveFixture;
}

/** The API as a fixture serves it, with the count of read requests refresh made. */
export interface FixtureApi {
  /** Pass as `fetchLiveState`'s `api`: only the read operations refresh uses are answered. */
  api: AdsApi;
  reads(): number;
}

const pages = (records: number, countMax: number): number => Math.max(1, Math.ceil(records / countMax));

/** The field an id filter matches: a resource's own `<x>_ids` filter matches `id`, any other `<x>_ids` matches `<x>_id`. */
function filteredField(name: ResourceName, filterParam: string): string {
  return filterParam === RESOURCES[name].idsParam ? 'id' : filterParam.replace(/_ids$/, '_id');
}

/** Campaigns and line items in DRAFT are listed only with `with_draft=true`, as the emulator does. */
function listed(name: ResourceName, record: WireRecord, params: Params): boolean {
  return params['with_draft'] === true || (name !== 'campaign' && name !== 'line_item') || record['entity_status'] !== 'DRAFT';
}

/**
 * Serves `fixture` for `accountId` as the read operations of `AdsApi` that refresh uses
 * (`account`, `list`, `listWhere`, `targetingCriteria`, `features`). Any other operation throws:
 * a plan must not write, and a new read shows up as a failing golden test instead of silently
 * reading nothing.
 */
export function fixtureApi(fixture: LiveFixture, accountId: string): FixtureApi {
  let reads = 0;
  const recordsOf = (name: ResourceName, forAccount: string): WireRecord[] => {
    if (forAccount !== accountId) throw new Error(`the fixture holds account ${accountId}, not ${forAccount}`);
    if (!isFixtureKind(name)) throw new Error(`the fixture cannot serve ${name}`);
    return fixture[name] ?? [];
  };
  const list = (name: ResourceName, forAccount: string, params: Params = {}): Promise<WireRecord[]> => {
    const records = recordsOf(name, forAccount).filter((r) => listed(name, r, params));
    reads += pages(records.length, RESOURCES[name].countMax);
    return Promise.resolve(records);
  };
  const listWhere = (name: ResourceName, forAccount: string, filterParam: string, ids: readonly string[], params: Params = {}): Promise<WireRecord[]> => {
    const unique = [...new Set(ids)];
    const field = filteredField(name, filterParam);
    const out: WireRecord[] = [];
    for (let i = 0; i < unique.length; i += IDS_PER_FILTER) {
      const chunk = new Set(unique.slice(i, i + IDS_PER_FILTER));
      const found = recordsOf(name, forAccount).filter((r) => chunk.has(String(r[field])) && listed(name, r, params));
      reads += pages(found.length, RESOURCES[name].countMax);
      out.push(...found);
    }
    return Promise.resolve(out);
  };
  const served = {
    account: (forAccount: string): Promise<WireRecord> => {
      reads += 1;
      const record = (fixture.account ?? []).find((a) => a['id'] === forAccount);
      if (record === undefined) throw new Error(`the fixture has no account ${forAccount}`);
      return Promise.resolve(record);
    },
    list,
    listWhere,
    targetingCriteria: (forAccount: string, lineItemIds: readonly string[]) => listWhere('targeting_criterion', forAccount, 'line_item_ids', lineItemIds),
    features: (forAccount: string): Promise<string[]> => {
      if (forAccount !== accountId) throw new Error(`the fixture holds account ${accountId}, not ${forAccount}`);
      reads += 1;
      return Promise.resolve(fixture.features ?? []);
    },
  };
  const api = new Proxy(served, {
    get(target, property) {
      if (typeof property === 'symbol' || property === 'then') return undefined;
      if (Object.hasOwn(target, property)) return target[property as keyof typeof target];
      throw new Error(`a plan called AdsApi.${String(property)}, which the live fixture does not serve`);
    },
  });
  return { api: api as unknown as AdsApi, reads: () => reads };
}
