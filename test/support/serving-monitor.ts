/**
 * What served at every moment of an apply, replayed from the wire: starting from the live account
 * as it was, each write the emulator accepted (in the order the proxy saw them) is applied to a
 * model of campaigns, line items, their targeting criteria and promoted posts, taken from the
 * records the service answered. After each write, the line items that serve (ACTIVE, in a campaign
 * that is ACTIVE, with something to promote) are listed with their targeting and promotions, so a
 * test can hold every moment to the serving invariant: never wider than the old or the new
 * manifest, never carrying creatives of both.
 */
import type { LiveAccount } from './e2e.js';
import type { WireRequest } from './wire-log.js';

/** A serving line item at one moment: its targeting (`TYPE:VALUE:OPERATOR`) and promoted post ids. */
export interface ServingLineItem {
  id: string;
  name: string;
  targeting: Set<string>;
  posts: Set<string>;
}

/** The line items serving right after one write. */
export interface Moment {
  /** The write: method and path. */
  write: string;
  serving: ServingLineItem[];
}

type Rec = Record<string, any>;

const criterionKey = (r: Rec): string => `${String(r['targeting_type'])}:${String(r['targeting_value'])}:${String(r['operator_type'] ?? 'EQ')}`;

class Model {
  campaigns = new Map<string, string>();
  lineItems = new Map<string, { name: string; campaign: string; status: string }>();
  /** criterion id → line item id and key. */
  criteria = new Map<string, { lineItem: string; key: string }>();
  /** promoted post id → line item id and post id. */
  promotions = new Map<string, { lineItem: string; post: string }>();

  take(kind: string, r: Rec): void {
    const id = String(r['id']);
    const gone = r['deleted'] === true;
    if (kind === 'campaign') {
      if (gone) this.campaigns.delete(id);
      else this.campaigns.set(id, String(r['entity_status']));
    } else if (kind === 'line_item') {
      if (gone) this.lineItems.delete(id);
      else this.lineItems.set(id, { name: String(r['name']), campaign: String(r['campaign_id']), status: String(r['entity_status']) });
    } else if (kind === 'targeting_criterion') {
      if (gone) this.criteria.delete(id);
      else this.criteria.set(id, { lineItem: String(r['line_item_id']), key: criterionKey(r) });
    } else if (kind === 'promoted_post') {
      if (gone) this.promotions.delete(id);
      else this.promotions.set(id, { lineItem: String(r['line_item_id']), post: String(r['tweet_id']) });
    }
  }

  serving(): ServingLineItem[] {
    const out: ServingLineItem[] = [];
    for (const [id, li] of this.lineItems) {
      // a campaign this model never saw was there before: taken as serving, the stricter reading
      if (li.status !== 'ACTIVE' || (this.campaigns.get(li.campaign) ?? 'ACTIVE') !== 'ACTIVE') continue;
      const targeting = new Set([...this.criteria.values()].filter((c) => c.lineItem === id).map((c) => c.key));
      const posts = new Set([...this.promotions.values()].filter((p) => p.lineItem === id).map((p) => p.post));
      // a line item with nothing to promote shows nothing, whatever it targets
      if (posts.size === 0) continue;
      out.push({ id, name: li.name, targeting, posts });
    }
    return out;
  }
}

/** The kind of records a write path answers, if the model follows it. */
function kindOfPath(path: string): string | undefined {
  if (/\/(campaigns)(\/[^/]+)?$/.test(path)) return 'campaign';
  if (/\/(line_items)(\/[^/]+)?$/.test(path)) return 'line_item';
  if (/\/targeting_criteria(\/[^/]+)?$/.test(path)) return 'targeting_criterion';
  if (/\/promoted_tweets(\/[^/]+)?$/.test(path)) return 'promoted_post';
  return undefined;
}

/** Every moment of the apply that `log` recorded, starting from `live` as it was before it. */
export function servingMoments(live: LiveAccount, log: readonly WireRequest[]): Moment[] {
  const model = new Model();
  for (const c of live.campaigns) model.take('campaign', c);
  for (const l of live.lineItems) model.take('line_item', l);
  for (const t of live.targeting) model.take('targeting_criterion', t);
  for (const p of live.promotedPosts) model.take('promoted_post', p);
  const moments: Moment[] = [];
  for (const request of log) {
    if (request.method === 'GET' || request.status === undefined || request.status >= 300) continue;
    const kind = kindOfPath(request.path);
    const data = (request.answer as { data?: unknown } | undefined)?.data;
    if (kind === undefined || data === undefined || data === null) continue;
    for (const r of Array.isArray(data) ? data : [data]) model.take(kind, r as Rec);
    moments.push({ write: `${request.method} ${request.path}`, serving: model.serving() });
  }
  return moments;
}

/**
 * The moments at which a line item served with targeting or promotions other than one of the
 * versions `allowed` gives for its name (the old and the new manifest; undefined for a line item
 * the caller does not judge), in words; empty when the invariant held throughout.
 */
export function servingViolations(
  moments: readonly Moment[],
  allowed: (name: string) => Array<{ targeting: readonly string[]; posts: readonly string[] }> | undefined,
): string[] {
  const out: string[] = [];
  const same = (a: ReadonlySet<string>, b: readonly string[]): boolean => a.size === new Set(b).size && b.every((x) => a.has(x));
  moments.forEach((moment, i) => {
    for (const li of moment.serving) {
      const versions = allowed(li.name);
      // line items of other tests in the same account are not this test's to judge
      if (versions === undefined || versions.some((v) => same(li.targeting, v.targeting) && same(li.posts, v.posts))) continue;
      out.push(`after write ${i + 1} (${moment.write}) line item ${li.id} "${li.name}" served with targeting [${[...li.targeting].sort().join(', ')}] and posts [${[...li.posts].sort().join(', ')}]`);
    }
  });
  return out;
}
