/**
 * Typed operations on the advertising API: every Part A resource and lookup, on top of the one
 * client. Lists read at the largest page and chunk id filters; batches chunk to each endpoint's
 * limit and map results back; promoted-post creation chunks to 50 post ids a request.
 */
import { runBatches, type BatchOperation, type BatchResult } from './batch.js';
import type { ApiClient, Params } from './client.js';
import type * as W from './generated/wire.js';
import { chunk, listAll, listByIds } from './pagination.js';
import { PROMOTED_TWEETS_PER_POST, RESOURCES, type CreateParams, type Records, type ResourceName, type UpdateParams } from './resources.js';

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

  /** Every record of a resource in the account (filters in `params`), all pages. */
  list<K extends ResourceName>(name: K, accountId: string, params: Params = {}): Promise<Array<Records[K]>> {
    return listAll<Records[K]>(this.client, { path: this.collectionPath(name, accountId), params, endpoint: `${name}.list`, accountId, countMax: RESOURCES[name].countMax });
  }

  /** Records matching an id filter (`filterParam` such as `campaign_ids`), 200 ids a request, in parallel. */
  listWhere<K extends ResourceName>(name: K, accountId: string, filterParam: string, ids: readonly string[], params: Params = {}): Promise<Array<Records[K]>> {
    return listByIds<Records[K]>(this.client, { path: this.collectionPath(name, accountId), params, endpoint: `${name}.list`, accountId, countMax: RESOURCES[name].countMax }, filterParam, ids);
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

  async get<K extends ResourceName>(name: K, accountId: string, id: string, withDeleted = false): Promise<Records[K]> {
    const res = await this.client.send<Single<Records[K]>>({
      method: 'GET',
      path: `${this.collectionPath(name, accountId)}/${encodeURIComponent(id)}`,
      params: withDeleted ? { with_deleted: true } : {},
      endpoint: `${name}.get`,
      accountId,
    });
    return res.body.data;
  }

  async create<K extends ResourceName>(name: K, accountId: string, params: CreateParams[K]): Promise<Records[K]> {
    const res = await this.client.send<Single<Records[K]>>({ method: 'POST', path: this.collectionPath(name, accountId), params: params as unknown as Params, endpoint: `${name}.create`, accountId });
    return res.body.data;
  }

  async update<K extends ResourceName>(name: K, accountId: string, id: string, params: UpdateParams[K]): Promise<Records[K]> {
    const res = await this.client.send<Single<Records[K]>>({ method: 'PUT', path: `${this.collectionPath(name, accountId)}/${encodeURIComponent(id)}`, params: params as unknown as Params, endpoint: `${name}.update`, accountId });
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

  async biddingRules(currency?: string): Promise<W.BiddingRule[]> {
    const res = await this.client.send<{ data: W.BiddingRule[] }>({ method: 'GET', path: `${V}/bidding_rules`, params: currency === undefined ? {} : { currency }, endpoint: 'bidding_rules.list' });
    return res.body.data;
  }

  async placements(productType?: string): Promise<W.PlacementCombination[]> {
    const res = await this.client.send<{ data: W.PlacementCombination[] }>({ method: 'GET', path: `${V}/line_items/placements`, params: productType === undefined ? {} : { product_type: productType }, endpoint: 'placements.list' });
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

  /** Targeting option lookups (`GET targeting_criteria/<kind>`: locations, languages, platforms, ...). */
  targetingOptions(kind: string, params: Params = {}): Promise<Array<Record<string, unknown>>> {
    return listAll<Record<string, unknown>>(this.client, { path: `${V}/targeting_criteria/${encodeURIComponent(kind)}`, params, endpoint: `targeting_options.${kind}` });
  }

  /** Changes recorded for one entity between two whole hours. */
  accountHistory(accountId: string, params: { entity_type: string; entity_id: string; start_time: string; end_time: string; user_id?: string }): Promise<W.AccountHistoryRecord[]> {
    return listAll<W.AccountHistoryRecord>(this.client, { path: `${V}/accounts/${encodeURIComponent(accountId)}/account_history`, params, endpoint: 'account_history.list', accountId });
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
