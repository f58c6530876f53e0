/**
 * The live fixture of a golden plan case: the records of one account exactly as the emulator's
 * list endpoints return them, grouped by API resource, each checked against
 * schemas/wire.schema.json so a fixture cannot drift from the real wire format. The fixture is
 * served to the real `fetchLiveState` through `fixtureApi`, which answers the reads refresh makes
 * and counts them as the API client would (one request per page of the endpoint's largest
 * `count` — 1,000, cards 200, drafts and scheduled posts 200, the media library 50 —, id filters cut into chunks of 200, the
 * do-not-reach lists in one request), so the plan's read count is the one a real refresh would
 * report.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { AdsApi } from '../../../src/api/ads-api.js';
import type { Params } from '../../../src/api/client.js';
import type { PostQuery } from '../../../src/api/posts.js';
import { IDS_PER_FILTER, RESOURCES, type ResourceName } from '../../../src/api/resources.js';

/**
 * The API resources a fixture may hold, with the wire schema definition of their records. Part B:
 * `media_library` (items of the media library, keyed by `media_key`), `card`, `tweet` (published
 * posts as `GET accounts/:id/tweets` shows them: extended mode, `trim_user`), `custom_audience`,
 * `custom_audience_permission` (the permissions of every audience, each naming its
 * `custom_audience_id`, as `GET custom_audiences/:id/permissions` lists them),
 * `do_not_reach_list`, `image_conversation_card` and `video_conversation_card` (as
 * `GET cards/image_conversation` and `cards/video_conversation` list them), `draft_tweet` and
 * `scheduled_tweet` (the drafts and scheduled posts of the account's FULL promotable user, as
 * their lists show them). Flexible audiences are `custom_audience` records of `audience_type`
 * FLEXIBLE.
 */
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
  media_library: 'MediaLibraryItem',
  card: 'Card',
  tweet: 'Tweet',
  custom_audience: 'CustomAudience',
  custom_audience_permission: 'CustomAudiencePermission',
  do_not_reach_list: 'DoNotReachList',
  image_conversation_card: 'ImageConversationCard',
  video_conversation_card: 'VideoConversationCard',
  draft_tweet: 'DraftTweet',
  scheduled_tweet: 'ScheduledTweet',
} as const;

/** An API resource name a fixture may hold records of. */
export type FixtureKind = keyof typeof FIXTURE_KINDS;

/** The field identifying a record of each kind, where it is not `id`. */
const ID_FIELDS: Partial<Record<FixtureKind, string>> = { media_library: 'media_key' };

/** A wire record as JSON. */
export type WireRecord = Record<string, unknown>;

/** `live.json`: records by API resource (absent kinds hold none), plus the account's feature keys. */
export type LiveFixture = Partial<Record<FixtureKind, WireRecord[]>> & { features?: string[] };

const schema = JSON.parse(readFileSync(new URL('../../../schemas/wire.schema.json', import.meta.url), 'utf8')) as { $id: string };
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addSchema(schema);

const isFixtureKind = (key: string): key is FixtureKind => Object.hasOwn(FIXTURE_KINDS, key);

/** The id of a record of `kind` (its `media_key` for a media library item). */
const idOf = (kind: FixtureKind, record: WireRecord): string => String(record[ID_FIELDS[kind] ?? 'id']);

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
      const id = idOf(key, r);
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

/** Requests of one list read of `name` holding `records` records: one per page, or one for a list without pages. */
const listReads = (name: ResourceName, records: number): number => (RESOURCES[name].unpaged === true ? 1 : pages(records, RESOURCES[name].countMax));

/** The largest page of `GET tweets` and of `GET custom_audiences/:id/permissions` as the client asks for them (src/api/posts.ts, audience-sharing.ts). */
const POSTS_PAGE = 1000;
const PERMISSIONS_PAGE = 1000;

/** The field an id filter matches: a resource's own `<x>_ids` filter matches `id`, any other `<x>_ids` matches `<x>_id`. */
function filteredField(name: ResourceName, filterParam: string): string {
  return filterParam === RESOURCES[name].idsParam ? 'id' : filterParam.replace(/_ids$/, '_id');
}

/** Campaigns and line items in DRAFT are listed only with `with_draft=true`, as the emulator does. */
function listed(name: ResourceName, record: WireRecord, params: Params): boolean {
  return params['with_draft'] === true || (name !== 'campaign' && name !== 'line_item') || record['entity_status'] !== 'DRAFT';
}

/** Chunks of at most IDS_PER_FILTER distinct ids, as the client cuts an id filter. */
function idChunks(ids: readonly string[]): Array<Set<string>> {
  const unique = [...new Set(ids)];
  const out: Array<Set<string>> = [];
  for (let i = 0; i < unique.length; i += IDS_PER_FILTER) out.push(new Set(unique.slice(i, i + IDS_PER_FILTER)));
  return out;
}

/**
 * Serves `fixture` for `accountId` as the read operations of `AdsApi` that refresh uses
 * (`account`, `list`, `listWhere`, `targetingCriteria`, `features`, and for Part B `mediaLibrary`,
 * `posts`, `audiencePermissions`, `doNotReachLists`). Any other operation throws: a plan must not
 * write, and a new read shows up as a failing golden test instead of silently reading nothing.
 */
export function fixtureApi(fixture: LiveFixture, accountId: string): FixtureApi {
  let reads = 0;
  const ofAccount = (forAccount: string): void => {
    if (forAccount !== accountId) throw new Error(`the fixture holds account ${accountId}, not ${forAccount}`);
  };
  const recordsOf = (name: ResourceName, forAccount: string): WireRecord[] => {
    ofAccount(forAccount);
    if (!isFixtureKind(name)) throw new Error(`the fixture cannot serve ${name}`);
    return fixture[name] ?? [];
  };
  const list = (name: ResourceName, forAccount: string, params: Params = {}): Promise<WireRecord[]> => {
    const records = recordsOf(name, forAccount).filter((r) => listed(name, r, params));
    reads += listReads(name, records.length);
    return Promise.resolve(records);
  };
  const listWhere = (name: ResourceName, forAccount: string, filterParam: string, ids: readonly string[], params: Params = {}): Promise<WireRecord[]> => {
    const spec = RESOURCES[name];
    if (spec.localIds === true && filterParam === spec.idsParam) {
      // no id filter on the service: the whole list is read and filtered (AdsApi.listWhere)
      const wanted = new Set(ids);
      if (wanted.size === 0) return Promise.resolve([]);
      return list(name, forAccount, params).then((records) => records.filter((r) => wanted.has(String(r[filterParam]))));
    }
    const field = filteredField(name, filterParam);
    const out: WireRecord[] = [];
    for (const chunk of idChunks(ids)) {
      const found = recordsOf(name, forAccount).filter((r) => chunk.has(String(r[field])) && listed(name, r, params));
      reads += listReads(name, found.length);
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
      ofAccount(forAccount);
      reads += 1;
      return Promise.resolve(fixture.features ?? []);
    },
    /** The whole media library, 50 items a page (`GET media_library`); refresh filters by no type or name. */
    mediaLibrary: (forAccount: string, params: Readonly<Record<string, unknown>> = {}): Promise<WireRecord[]> => {
      if (Object.keys(params).length > 0) throw new Error(`the fixture serves the whole media library, not one filtered by ${Object.keys(params).join(', ')}`);
      return list('media_library', forAccount);
    },
    /**
     * Posts among `ids` of `query.tweetType` (`GET tweets`, 200 ids a request, pages of 1,000):
     * the fixture's `tweet` records, all by the account's FULL promotable user, so a `userId`
     * keeps those whose author it is.
     */
    posts: (forAccount: string, ids: readonly string[], query: PostQuery): Promise<WireRecord[]> => {
      ofAccount(forAccount);
      const out: WireRecord[] = [];
      for (const chunk of idChunks(ids)) {
        const found = (fixture.tweet ?? []).filter((r) => {
          const user = r['user'] as WireRecord | undefined;
          return chunk.has(String(r['id'])) && r['tweet_type'] === query.tweetType && (query.userId === undefined || String(user?.['id']) === query.userId);
        });
        reads += pages(found.length, POSTS_PAGE);
        out.push(...found);
      }
      return Promise.resolve(out);
    },
    /** The permissions of one audience (`GET custom_audiences/:id/permissions`, pages of 1,000). */
    audiencePermissions: (forAccount: string, audienceId: string): Promise<WireRecord[]> => {
      ofAccount(forAccount);
      const found = (fixture.custom_audience_permission ?? []).filter((r) => r['custom_audience_id'] === audienceId);
      reads += pages(found.length, PERMISSIONS_PAGE);
      return Promise.resolve(found);
    },
    /** The account's do-not-reach lists: one request, the list takes no `count` or `cursor`. */
    doNotReachLists: (forAccount: string, withDeleted = false): Promise<WireRecord[]> => {
      if (withDeleted) throw new Error('the fixture holds no deleted do-not-reach lists');
      return list('do_not_reach_list', forAccount);
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
