/**
 * Typed operations on the advertising API, on top of the one client: every Part A resource and
 * lookup, and Part B's creatives, posts and audiences (cards, the media library and uploads,
 * posts, audience sharing, flexible audiences, users uploads). Lists read at the largest page and
 * chunk id filters; batches chunk to each endpoint's limit and map results back; promoted-post
 * creation chunks to 50 post ids a request.
 */
import { grantAudience, listAudiencePermissions, revokeAudience, type AudienceGrant, type AudiencePermission, type PermissionsEndpoint } from './audience-sharing.js';
import { audienceUsersTarget, doNotReachUsersTarget, sendUsers } from './audience-users.js';
import { runBatches, type BatchOperation, type BatchResult } from './batch.js';
import type { ApiClient, Params } from './client.js';
import { ApiError } from './errors.js';
import type * as W from './generated/wire.js';
import { chunk, listAll, listByIds, type ListRequest } from './pagination.js';
import { createPost, listPosts, listPromotedOnlyPosts, renamePost, type PostQuery, type PostRecord } from './posts.js';
import {
  FLEXIBLE_AUDIENCES_PER_BATCH,
  PROMOTED_TWEETS_PER_POST,
  RESOURCES,
  type CardBody,
  type CreateParams,
  type Records,
  type ResourceName,
  type UpdateParams,
} from './resources.js';
import { uploadMedia, type MediaFile, type UploadedMedia, type UploadOptions } from './upload.js';

const V = '/12';

interface Single<T> {
  data: T;
}

export class AdsApi {
  readonly client: ApiClient;

  constructor(client: ApiClient) {
    this.client = client;
  }

  private collectionPath(name: ResourceName, accountId: string): string {
    return `${V}/accounts/${encodeURIComponent(accountId)}/${RESOURCES[name].collection}`;
  }

  private listRequest(name: ResourceName, accountId: string, params: Params): ListRequest {
    const spec = RESOURCES[name];
    return { path: this.collectionPath(name, accountId), params, endpoint: `${name}.list`, accountId, countMax: spec.countMax, ...(spec.unpaged === true ? { paged: false as const } : {}) };
  }

  /** Every record of a resource in the account (filters in `params`), all pages. */
  list<K extends ResourceName>(name: K, accountId: string, params: Params = {}): Promise<Array<Records[K]>> {
    return listAll<Records[K]>(this.client, this.listRequest(name, accountId, params));
  }

  /**
   * Records matching an id filter (`filterParam` such as `campaign_ids`), 200 ids a request, in
   * parallel. A resource whose list has no id filter (`localIds` in its table entry) is filtered
   * here instead: its whole list is read once and the records whose `idsParam` field is among
   * `ids` are kept.
   */
  async listWhere<K extends ResourceName>(name: K, accountId: string, filterParam: string, ids: readonly string[], params: Params = {}): Promise<Array<Records[K]>> {
    const spec = RESOURCES[name];
    if (spec.localIds !== true || filterParam !== spec.idsParam) return listByIds<Records[K]>(this.client, this.listRequest(name, accountId, params), filterParam, ids);
    const wanted = new Set(ids);
    if (wanted.size === 0) return [];
    return (await this.list(name, accountId, params)).filter((record) => wanted.has(String((record as Record<string, unknown>)[filterParam])));
  }

  /**
   * The ids among `ids` of published posts the account can see (Part B, `GET tweets`: every
   * timeline, by `user_id` or the account's FULL promotable user), 200 ids a request.
   */
  async publishedPosts(accountId: string, ids: readonly string[], userId?: string): Promise<string[]> {
    const params: Params = { tweet_type: 'PUBLISHED', timeline_type: 'ALL', trim_user: true, ...(userId === undefined ? {} : { user_id: userId }) };
    const found = await listByIds<{ id?: unknown; id_str?: unknown }>(this.client, { path: `${V}/accounts/${encodeURIComponent(accountId)}/tweets`, params, endpoint: 'tweet.list', accountId, countMax: 1000 }, 'tweet_ids', ids);
    return found.map((p) => String(p.id_str ?? p.id));
  }

  /**
   * One record by id (`with_deleted` to see a deleted one). A resource without `GET .../:id`
   * (`noGet`) is looked up in its list; absent, that is a 404 `ApiError` like the service's.
   */
  async get<K extends ResourceName>(name: K, accountId: string, id: string, withDeleted = false): Promise<Records[K]> {
    if (RESOURCES[name].noGet === true) {
      const [found] = await this.listWhere(name, accountId, RESOURCES[name].idsParam, [id], withDeleted ? { with_deleted: true } : {});
      if (found !== undefined) return found;
      const message = `${name} ${id} was not found for Account ${accountId}`;
      throw new ApiError({ status: 404, items: [{ code: 'NOT_FOUND', message }], retryable: false, outcome: 'rejected', request: `GET ${this.collectionPath(name, accountId)}` });
    }
    const res = await this.client.send<Single<Records[K]>>({
      method: 'GET',
      path: `${this.collectionPath(name, accountId)}/${encodeURIComponent(id)}`,
      params: withDeleted ? { with_deleted: true } : {},
      endpoint: `${name}.get`,
      accountId,
    });
    return res.body.data;
  }

  /** The body of a POST or PUT: form parameters, or JSON for the resources that take it (cards). */
  private writeBody(name: ResourceName, params: unknown): { params: Params } | { json: unknown } {
    return RESOURCES[name].jsonBody === true ? { json: params } : { params: params as Params };
  }

  async create<K extends ResourceName>(name: K, accountId: string, params: CreateParams[K]): Promise<Records[K]> {
    const res = await this.client.send<Single<Records[K]>>({ method: 'POST', path: this.collectionPath(name, accountId), ...this.writeBody(name, params), endpoint: `${name}.create`, accountId });
    return res.body.data;
  }

  async update<K extends ResourceName>(name: K, accountId: string, id: string, params: UpdateParams[K]): Promise<Records[K]> {
    const res = await this.client.send<Single<Records[K]>>({ method: 'PUT', path: `${this.collectionPath(name, accountId)}/${encodeURIComponent(id)}`, ...this.writeBody(name, params), endpoint: `${name}.update`, accountId });
    return res.body.data;
  }

  async delete<K extends ResourceName>(name: K, accountId: string, id: string): Promise<Records[K]> {
    const res = await this.client.send<Single<Records[K]>>({ method: 'DELETE', path: `${this.collectionPath(name, accountId)}/${encodeURIComponent(id)}`, endpoint: `${name}.delete`, accountId });
    return res.body.data;
  }

  /** Batch Create/Update/Delete, chunked to the resource's limit; one result per operation. */
  batch<K extends ResourceName>(name: K, accountId: string, operations: readonly BatchOperation[]): Promise<Array<BatchResult<Records[K]>>> {
    const limit = RESOURCES[name].batchLimit;
    if (limit === undefined) throw new Error(`${name} has no batch endpoint`);
    return runBatches<Records[K]>(this.client, { path: `${V}/batch/accounts/${encodeURIComponent(accountId)}/${RESOURCES[name].collection}`, endpoint: `${name}.batch`, accountId, limit }, operations);
  }

  /** Targeting criteria of line items (the endpoint requires `line_item_ids`). */
  targetingCriteria(accountId: string, lineItemIds: readonly string[], withDeleted = false): Promise<W.TargetingCriterion[]> {
    return this.listWhere('targeting_criterion', accountId, 'line_item_ids', lineItemIds, withDeleted ? { with_deleted: true } : {});
  }

  /** Promotes posts on a line item, 50 post ids a request; the created promotions, in order. */
  async promoteTweets(accountId: string, lineItemId: string, tweetIds: readonly string[]): Promise<W.PromotedTweet[]> {
    const out: W.PromotedTweet[] = [];
    for (const ids of chunk(tweetIds, PROMOTED_TWEETS_PER_POST)) {
      const res = await this.client.send<{ data: W.PromotedTweet[] }>({
        method: 'POST',
        path: this.collectionPath('promoted_tweet', accountId),
        params: { line_item_id: lineItemId, tweet_ids: ids },
        endpoint: 'promoted_tweet.create',
        accountId,
      });
      out.push(...res.body.data);
    }
    return out;
  }

  /** Accounts the authenticated user can access. */
  accounts(params: Params = {}): Promise<W.Account[]> {
    return listAll<W.Account>(this.client, { path: `${V}/accounts`, params, endpoint: 'account.list' });
  }

  async account(accountId: string, withDeleted = false): Promise<W.Account> {
    const res = await this.client.send<Single<W.Account>>({ method: 'GET', path: `${V}/accounts/${encodeURIComponent(accountId)}`, params: withDeleted ? { with_deleted: true } : {}, endpoint: 'account.get', accountId });
    return res.body.data;
  }

  async updateAccount(accountId: string, params: { name?: string; industry_type?: string }): Promise<W.Account> {
    const res = await this.client.send<Single<W.Account>>({ method: 'PUT', path: `${V}/accounts/${encodeURIComponent(accountId)}`, params, endpoint: 'account.update', accountId });
    return res.body.data;
  }

  /** Sandbox only: a new account owned by the caller. */
  async createSandboxAccount(): Promise<W.Account> {
    const res = await this.client.send<{ data: W.Account[] | W.Account }>({ method: 'POST', path: `${V}/accounts`, base: 'sandbox', endpoint: 'account.create' });
    const data = res.body.data;
    const account = Array.isArray(data) ? data[0] : data;
    if (account === undefined) throw new Error('sandbox account creation returned no account');
    return account;
  }

  async deleteSandboxAccount(accountId: string): Promise<W.Account> {
    const res = await this.client.send<Single<W.Account>>({ method: 'DELETE', path: `${V}/accounts/${encodeURIComponent(accountId)}`, base: 'sandbox', endpoint: 'account.delete', accountId });
    return res.body.data;
  }

  /** Sandbox only: a funding instrument. */
  async createSandboxFundingInstrument(accountId: string, params: W.FundingInstrumentCreateParams): Promise<W.FundingInstrument> {
    const res = await this.client.send<Single<W.FundingInstrument>>({ method: 'POST', path: this.collectionPath('funding_instrument', accountId), base: 'sandbox', params: params as unknown as Params, endpoint: 'funding_instrument.create', accountId });
    return res.body.data;
  }

  async deleteSandboxFundingInstrument(accountId: string, id: string): Promise<W.FundingInstrument> {
    const res = await this.client.send<Single<W.FundingInstrument>>({ method: 'DELETE', path: `${this.collectionPath('funding_instrument', accountId)}/${encodeURIComponent(id)}`, base: 'sandbox', endpoint: 'funding_instrument.delete', accountId });
    return res.body.data;
  }

  async features(accountId: string): Promise<string[]> {
    const res = await this.client.send<{ data: string[] }>({ method: 'GET', path: `${V}/accounts/${encodeURIComponent(accountId)}/features`, endpoint: 'feature.list', accountId });
    return res.body.data;
  }

  /** Sandbox only: adds (`POST`) or removes (`DELETE`) feature keys; the resulting key list. */
  async changeFeatures(accountId: string, method: 'POST' | 'DELETE', keys: readonly string[]): Promise<string[]> {
    const res = await this.client.send<{ data: string[] }>({ method, path: `${V}/accounts/${encodeURIComponent(accountId)}/features`, base: 'sandbox', params: { feature_keys: keys }, endpoint: `feature.${method === 'POST' ? 'add' : 'remove'}`, accountId, idempotent: true });
    return res.body.data;
  }

  async userAccess(accountId: string): Promise<W.AuthenticatedUserAccess> {
    const res = await this.client.send<Single<W.AuthenticatedUserAccess>>({ method: 'GET', path: `${V}/accounts/${encodeURIComponent(accountId)}/authenticated_user_access`, endpoint: 'user_access.get', accountId });
    return res.body.data;
  }

  /** The bidding rules (of one currency); `maxWaitMs` bounds the wait for the global read budget. */
  async biddingRules(currency?: string, options: { maxWaitMs?: number } = {}): Promise<W.BiddingRule[]> {
    const res = await this.client.send<{ data: W.BiddingRule[] }>({ method: 'GET', path: `${V}/bidding_rules`, params: currency === undefined ? {} : { currency }, endpoint: 'bidding_rules.list', ...options });
    return res.body.data;
  }

  /** The placement combinations (of one product type); `maxWaitMs` bounds the wait for the global read budget. */
  async placements(productType?: string, options: { maxWaitMs?: number } = {}): Promise<W.PlacementCombination[]> {
    const res = await this.client.send<{ data: W.PlacementCombination[] }>({ method: 'GET', path: `${V}/line_items/placements`, params: productType === undefined ? {} : { product_type: productType }, endpoint: 'placements.list', ...options });
    return res.body.data;
  }

  iabCategories(): Promise<W.IabCategory[]> {
    return listAll<W.IabCategory>(this.client, { path: `${V}/iab_categories`, endpoint: 'iab_categories.list' });
  }

  async businessCategories(): Promise<W.AdvertiserBusinessCategory[]> {
    const res = await this.client.send<{ data: W.AdvertiserBusinessCategory[] }>({ method: 'GET', path: `${V}/advertiser_business_categories`, endpoint: 'business_categories.list' });
    return res.body.data;
  }

  async curatedCategories(accountId: string, countryCodes?: readonly string[]): Promise<W.CuratedCategory[]> {
    const out: W.CuratedCategory[] = [];
    let cursor: string | undefined;
    do {
      const res = await this.client.send<{ data: W.CuratedCategory[]; next_cursor?: string | null }>({
        method: 'GET',
        path: `${V}/accounts/${encodeURIComponent(accountId)}/curated_categories`,
        params: { ...(countryCodes === undefined ? {} : { country_codes: countryCodes }), ...(cursor === undefined ? {} : { cursor }) },
        endpoint: 'curated_categories.list',
        accountId,
      });
      out.push(...res.body.data);
      cursor = typeof res.body.next_cursor === 'string' && res.body.next_cursor !== '' ? res.body.next_cursor : undefined;
    } while (cursor !== undefined);
    return out;
  }

  async contentCategories(): Promise<Array<{ id: string; name: string; iab_categories: string[] }>> {
    const res = await this.client.send<{ data: Array<{ id: string; name: string; iab_categories: string[] }> }>({ method: 'GET', path: `${V}/content_categories`, endpoint: 'content_categories.list' });
    return res.body.data;
  }

  /**
   * Targeting option lookups (`GET targeting_criteria/<kind>`: locations, languages, platforms,
   * ...), every page. `paging` says how the lookup pages when not at 1,000 a page: its largest
   * `count` (tv_shows 50), or none at all (`paged: false`: app_store_categories,
   * platform_versions); `maxWaitMs` bounds the wait for the rate-limit budget.
   */
  targetingOptions(kind: string, params: Params = {}, paging: { countMax?: number; paged?: false; maxWaitMs?: number } = {}): Promise<Array<Record<string, unknown>>> {
    return listAll<Record<string, unknown>>(this.client, { path: `${V}/targeting_criteria/${encodeURIComponent(kind)}`, params, endpoint: `targeting_options.${kind}`, ...paging });
  }

  /** Changes recorded for one entity between two whole hours. */
  accountHistory(accountId: string, params: { entity_type: string; entity_id: string; start_time: string; end_time: string; user_id?: string }): Promise<W.AccountHistoryRecord[]> {
    return listAll<W.AccountHistoryRecord>(this.client, { path: `${V}/accounts/${encodeURIComponent(accountId)}/account_history`, params, endpoint: 'account_history.list', accountId });
  }

  /**
   * The first 1,000 changes (oldest first) recorded for one entity between two whole hours, in
   * exactly one request: what attributing drift reads, at most one request per object.
   */
  async accountHistoryPage(accountId: string, params: { entity_type: string; entity_id: string; start_time: string; end_time: string }): Promise<W.AccountHistoryRecord[]> {
    const res = await this.client.send<{ data: W.AccountHistoryRecord[] }>({
      method: 'GET',
      path: `${V}/accounts/${encodeURIComponent(accountId)}/account_history`,
      params: { ...params, count: 1000 },
      endpoint: 'account_history.list',
      accountId,
    });
    return res.body.data;
  }

  /** Estimated audience size of a set of targeting criteria (a read with a JSON body). */
  async audienceEstimate(accountId: string, criteria: ReadonlyArray<{ targeting_type: string; targeting_value: string; operator_type?: 'EQ' | 'NE' }>): Promise<{ min: number; max: number }> {
    const res = await this.client.send<{ data: { audience_size: { min: number; max: number } } }>({
      method: 'POST',
      path: `${V}/accounts/${encodeURIComponent(accountId)}/audience_estimate`,
      json: { targeting_criteria: criteria },
      endpoint: 'audience_estimate.create',
      accountId,
      idempotent: true,
    });
    return res.body.data.audience_size;
  }

  /** Creates a card from a JSON body: `name` and `components`, or `slides` for a multi-destination carousel. */
  createCard(accountId: string, body: CardBody & { name: string }): Promise<Records['card']> {
    return this.create('card', accountId, body);
  }

  /** Changes a card: each field of the JSON body given replaces the stored one. */
  updateCard(accountId: string, cardId: string, body: CardBody): Promise<Records['card']> {
    return this.update('card', accountId, cardId, body);
  }

  /** Posts among `ids` of one type (`GET tweets`, 200 ids a request), with `id` a string; see posts.ts. */
  posts(accountId: string, ids: readonly string[], query: PostQuery): Promise<PostRecord[]> {
    return listPosts(this.client, accountId, ids, query);
  }

  /** Every promoted-only post of one type (`GET tweets` at the largest page), with `id` a string; see posts.ts. */
  promotedOnlyPosts(accountId: string, query: PostQuery): Promise<PostRecord[]> {
    return listPromotedOnlyPosts(this.client, accountId, query);
  }

  /** Publishes a promoted-only post (`POST tweet`); the post, its `id` a string. */
  createPost(accountId: string, params: W.TweetCreateParams | Readonly<Record<string, unknown>>): Promise<PostRecord> {
    return createPost(this.client, accountId, params);
  }

  /** Names a published post (`PUT tweets/:id/name`). */
  renamePost(accountId: string, tweetId: string, name: string): Promise<PostRecord> {
    return renamePost(this.client, accountId, tweetId, name);
  }

  /**
   * Uploads media through the endpoint's upload service (chunked; a video is waited for while it
   * is processed); its media key, which `addToMediaLibrary` takes. See upload.ts.
   */
  uploadMedia(file: MediaFile, options: UploadOptions = {}): Promise<UploadedMedia> {
    return uploadMedia(this.client, file, options);
  }

  /** Adds uploaded media to the account's media library (`POST media_library`). */
  addToMediaLibrary(accountId: string, params: W.MediaLibraryItemCreateParams): Promise<Records['media_library']> {
    return this.create('media_library', accountId, params);
  }

  /** Changes a media library item's labels (`PUT media_library/:media_key`; null unsets one). */
  updateMediaLibraryItem(accountId: string, mediaKey: string, params: W.MediaLibraryItemUpdateParams): Promise<Records['media_library']> {
    return this.update('media_library', accountId, mediaKey, params);
  }

  /** A media library item, or undefined when the library does not hold it (a 404). */
  async mediaLibraryItem(accountId: string, mediaKey: string): Promise<Records['media_library'] | undefined> {
    try {
      return await this.get('media_library', accountId, mediaKey);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** Every media library item of the account (50 a page), optionally of one `media_type` or matching `q`. */
  mediaLibrary(accountId: string, params: { media_type?: 'GIF' | 'IMAGE' | 'VIDEO'; q?: string } = {}): Promise<Array<Records['media_library']>> {
    return this.list('media_library', accountId, params);
  }

  /** Every account media asset, optionally of some `creative_types` (`PREROLL`, `BANNER`, ...). */
  accountMedia(accountId: string, params: { creative_types?: readonly string[]; with_deleted?: boolean } = {}): Promise<Array<Records['account_media']>> {
    return this.list('account_media', accountId, params);
  }

  /** The permissions an audience is shared under (all pages), at version 12 or where `at` says. */
  audiencePermissions(accountId: string, audienceId: string, at?: PermissionsEndpoint): Promise<AudiencePermission[]> {
    return listAudiencePermissions(this.client, accountId, audienceId, at);
  }

  /** Shares an audience with another account at `READ_ONLY` or `READ_WRITE`; the new permission. */
  grantAudience(accountId: string, audienceId: string, grant: AudienceGrant, at?: PermissionsEndpoint): Promise<AudiencePermission> {
    return grantAudience(this.client, accountId, audienceId, grant, at);
  }

  /** Revokes one permission of an audience; the revoked permission. */
  revokeAudience(accountId: string, audienceId: string, permissionId: string, at?: PermissionsEndpoint): Promise<AudiencePermission> {
    return revokeAudience(this.client, accountId, audienceId, permissionId, at);
  }

  /**
   * Creates and deletes flexible audiences (`POST batch/accounts/:id/custom_audiences`, 10 a
   * request, all or nothing); one result per operation, in order. They cannot be updated.
   */
  flexibleAudiences(accountId: string, operations: readonly BatchOperation[]): Promise<Array<BatchResult<Records['custom_audience']>>> {
    const path = `${V}/batch/accounts/${encodeURIComponent(accountId)}/${RESOURCES.custom_audience.collection}`;
    return runBatches<Records['custom_audience']>(this.client, { path, endpoint: 'custom_audience.batch', accountId, limit: FLEXIBLE_AUDIENCES_PER_BATCH }, operations);
  }

  /**
   * Sends one serialised users body (Update and Delete operations) holding `expected` user
   * entries to a custom audience; a retryable `ApiError` unless the service took them all. See audience-users.ts.
   */
  sendAudienceUsers(accountId: string, audienceId: string, body: string, expected: number): Promise<W.AudienceUsersResult> {
    return sendUsers(this.client, audienceUsersTarget(accountId, audienceId), body, expected);
  }

  /** `sendAudienceUsers` for the do-not-reach list's users batch. */
  sendDoNotReachUsers(accountId: string, listId: string, body: string, expected: number): Promise<W.AudienceUsersResult> {
    return sendUsers(this.client, doNotReachUsersTarget(accountId, listId), body, expected);
  }

  /** The account's do-not-reach lists: the live one, if any (and deleted ones with `withDeleted`). */
  doNotReachLists(accountId: string, withDeleted = false): Promise<Array<Records['do_not_reach_list']>> {
    return this.list('do_not_reach_list', accountId, withDeleted ? { with_deleted: true } : {});
  }

  /**
   * Post volume of `keywords` (OR-ed, less `negative_keywords`) per DAY or HOUR bucket from
   * `start_time`, and 30 related keywords, in one country (Part B, `GET insights/keywords/search`).
   * The service's limits (10 keywords and negative keywords together, 7 days) are the caller's to check.
   */
  async keywordInsights(params: { granularity: 'DAY' | 'HOUR'; keywords: readonly string[]; start_time: string; end_time?: string; location?: string; negative_keywords?: readonly string[] }): Promise<W.KeywordInsights> {
    const res = await this.client.send<Single<W.KeywordInsights>>({ method: 'GET', path: `${V}/insights/keywords/search`, params, endpoint: 'insights.keywords' });
    return res.body.data;
  }
}
