/**
 * `adsctl generate`'s stage: manifests written from whole live accounts (src/live/whole-account.ts),
 * in the idiom of docs/manifest.md, driven by the kind descriptors (src/kinds/) the other way
 * round from the manifest stage: logical names from the objects' names (src/generate/slug.ts),
 * references by logical name, money in currency units, times in UTC, only the fields that differ
 * from the service's defaults, children nested under their parents. What cannot be rebuilt from
 * live data is written as a reference to the live object, with a comment: a media library item by
 * its id, an audience without its members. Posts are those a manifest could have made: the
 * promoted-only posts, drafts and not yet published scheduled posts of the account's FULL
 * promotable user (the descriptors' `whole` readers read no others), promotions of them by `posts.NAME`. A kind not generated yet is said so in the file and as
 * a warning, never left out silently. Pure: live data in, text and the state bindings out.
 */
import type { KindDescriptor } from '../kinds/descriptor.js';
import type { ResourceKind } from '../kinds/kind.js';
import { KINDS } from '../kinds/registry.js';
import { targetingKey } from '../kinds/targeting-identity.js';
import type { LiveAccount, LiveResource } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { AddressStep } from '../manifest/types.js';
import { manifestTakesScalar } from './accepted.js';
import { manifestFieldsOf, type NamesById } from './fields.js';
import { manifestText, type Entry, type Node } from './manifest-text.js';
import { uniqueKeys } from './slug.js';

/** One account to write. */
export interface GenerateInput {
  live: LiveAccount;
  /** Kinds that could not be read whole. */
  unread: readonly ResourceKind[];
  /** The `endpoint:` the manifest names. */
  endpoint: string;
  /** The manifest schema, relative to the manifest (the editor modeline). */
  schemaPath: string;
  /** When the account was read (UTC). */
  readAt: Date;
  /**
   * The keys objects already have in a manifest, by `kind:id` (`generate --merge`): they are
   * generated under those keys, so that references to them read as that manifest writes them.
   */
  fixedKeys?: ReadonlyMap<string, string>;
}

/** The live object an address of a generated manifest is bound to. */
export interface GeneratedBinding {
  address: string;
  steps: AddressStep[];
  kind: ResourceKind;
  id: string;
}

/** A generated manifest. */
export interface GeneratedManifest {
  accountId: string;
  /** `<account id>.yaml`. */
  fileName: string;
  text: string;
  bindings: GeneratedBinding[];
  /** Objects the manifest does not hold, and names made unique, in words. */
  warnings: string[];
}

/** The kinds generate writes, in the order of their sections; every other kind is reported. */
const WRITTEN: ReadonlySet<ResourceKind> = new Set(['account', 'account_feature', 'do_not_reach_list', 'funding_instrument', 'media', 'card', 'conversation_card', 'post', 'draft_post', 'scheduled_post', 'custom_audience', 'audience_permission', 'campaign', 'line_item', 'targeting_criterion', 'promoted_post', 'promoted_account', 'line_item_curated_category', 'media_creative']);

/** Why a kind is not written, for those that are read but not generated. */
const NOT_WRITTEN: Readonly<Partial<Record<ResourceKind, string>>> = {
  audience_members: 'members are never read from the service: the audience is written without users (add users: { file: ... } to manage them)',
  do_not_reach_members: 'members are never read from the service',
  tailored_audience_permission: 'the same grants as permissions, written there',
  flexible_audience: 'read with the custom audiences, and named one by one as not generated yet',
};

/** The kinds generate reads from a live account: those it writes, and the others it reports. */
export const GENERATE_READS: ReadonlySet<ResourceKind> = WRITTEN;

const records = (live: LiveAccount, kind: ResourceKind): LiveResource[] => [...(live.resources.get(kind)?.values() ?? [])];

/** The indexes `childrenOf` built, per account: kind and parent field → parent id → records. */
const childIndexes = new WeakMap<LiveAccount, Map<string, Map<string, LiveResource[]>>>();

/**
 * The records of `kind` whose `field` holds `parentId`, from an index built once per account,
 * kind and field: a scan per parent would take time in the product of parents and children
 * (20,000 line items × 60,000 criteria on a large account).
 */
function childrenOf(live: LiveAccount, kind: ResourceKind, field: string, parentId: string): LiveResource[] {
  let indexes = childIndexes.get(live);
  if (indexes === undefined) childIndexes.set(live, (indexes = new Map()));
  const name = `${kind}\u0000${field}`;
  let index = indexes.get(name);
  if (index === undefined) {
    index = new Map();
    for (const r of records(live, kind)) {
      const parent = String(r.record[field]);
      const list = index.get(parent);
      if (list === undefined) index.set(parent, [r]);
      else list.push(r);
    }
    indexes.set(name, index);
  }
  return index.get(parentId) ?? [];
}
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Writes the manifest of one account. */
function generateOne(input: GenerateInput): GeneratedManifest {
  const { live } = input;
  const accountId = live.accountId ?? live.account;
  const bindings: GeneratedBinding[] = [];
  const warnings: string[] = [];
  const names = new Map<string, Map<string, string>>();
  const bind = (kind: ResourceKind, steps: AddressStep[], id: string): void => {
    bindings.push({ address: formatAddress({ kind, steps }), steps, kind, id });
  };
  const comments = new Map<string, string>();
  const keysFor = (d: KindDescriptor, objects: LiveResource[], nameOf: (r: LiveResource) => string | undefined, collectionKey: string): Map<string, string> => {
    const fixed = new Map(objects.flatMap((r) => {
      const key = input.fixedKeys?.get(`${d.kind}:${r.id}`);
      return key === undefined ? [] : [[r.id, key] as const];
    }));
    const keys = uniqueKeys(objects.map((r) => ({ id: r.id, name: nameOf(r) })), (id) => `${d.kind}_${id.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase()}`, fixed);
    const out = new Map<string, string>();
    for (const [id, given] of keys) {
      out.set(id, given.key);
      if (given.collidesWith !== undefined) {
        const text = `named like ${collectionKey}.${given.collidesWith} (${JSON.stringify(nameOf(objects.find((o) => o.id === id) as LiveResource) ?? '')}): given the key ${given.key}`;
        comments.set(`${d.kind}:${id}`, text);
        warnings.push(`${d.noun} ${id} is ${text}`);
      }
    }
    return out;
  };
  const named = (kind: ResourceKind, objects: LiveResource[], nameOf: (r: LiveResource) => string | undefined): Map<string, string> => {
    const d = KINDS[kind];
    const keys = keysFor(d, objects, nameOf, d.address.collection);
    if (d.parent === 'account') names.set(d.address.collection, new Map([...keys]));
    return keys;
  };
  const sorted = (objects: LiveResource[], keys: Map<string, string>): LiveResource[] => [...objects].sort((a, b) => ((keys.get(a.id) ?? '') < (keys.get(b.id) ?? '') ? -1 : 1));
  const root: Entry[] = [{ key: 'version', value: { scalar: 1 } }, { key: 'endpoint', value: { scalar: input.endpoint } }];

  const account = records(live, 'account')[0];
  bind('account', [], accountId);
  const accountFields: Array<[string, unknown]> = [['id', accountId], ...(account === undefined ? [] : manifestFieldsOf(KINDS.account, account.record, names))];
  root.push({ key: 'account', value: { map: accountFields.map(([key, value]) => ({ key, value: { scalar: value } })) } });

  const footer: string[] = [];
  // the features the account has, by key (sandbox and local add and remove them; production only checks them)
  const features = records(live, 'account_feature').map((f) => f.id).sort();
  if (features.length > 0) {
    root.push({ key: 'features', value: { scalar: features } });
    for (const key of features) bind('account_feature', [{ collection: 'features', key }], key);
  }

  // funding instruments: existing ones, by id
  const instruments = records(live, 'funding_instrument');
  const instrumentKeys = named('funding_instrument', instruments, (r) => str(r.record['name']) ?? str(r.record['description']) ?? str(r.record['type']));
  if (instruments.length > 0) {
    root.push({
      key: 'funding_instruments',
      value: { map: sorted(instruments, instrumentKeys).map((r) => ({ key: instrumentKeys.get(r.id) ?? r.id, value: { flow: [['id', r.id]] }, ...comment(comments, r) })) },
    });
    for (const r of instruments) bind('funding_instrument', [{ collection: 'funding_instruments', key: instrumentKeys.get(r.id) ?? r.id }], r.id);
  }

  // media library items: by id, their bytes are not here
  const media = records(live, 'media');
  const mediaKeys = named('media', media, (r) => str(r.record['name']) ?? str(r.record['file_name']));
  if (media.length > 0) {
    root.push({
      key: 'media',
      comment: 'library items named by id: adsctl does not have their files, and never uploads them',
      value: { map: sorted(media, mediaKeys).map((r) => ({ key: mediaKeys.get(r.id) ?? r.id, value: { flow: [['id', r.id], ...manifestFieldsOf(KINDS.media, r.record, names)] }, ...comment(comments, r) })) },
    });
    for (const r of media) bind('media', [{ collection: 'media', key: mediaKeys.get(r.id) ?? r.id }], r.id);
  }

  // cards, their media by logical name
  const cards = records(live, 'card');
  const cardKeys = named('card', cards, (r) => str(r.record['name']));
  if (cards.length > 0) {
    const mediaName = (key: unknown): string | undefined => names.get('media')?.get(String(key));
    const component = (c: unknown): Array<[string, unknown]> => {
      const fields = Object.entries((c ?? {}) as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined);
      return fields.map(([k, v]): [string, unknown] => {
        if (k === 'media_key' && mediaName(v) !== undefined) return ['media', mediaName(v)];
        if (k === 'media_keys' && Array.isArray(v) && v.every((m) => mediaName(m) !== undefined)) return ['media', v.map(mediaName)];
        return [k, v];
      });
    };
    root.push({
      key: 'cards',
      value: {
        map: sorted(cards, cardKeys).map((r) => {
          const entry: Entry[] = manifestFieldsOf(KINDS.card, r.record, names).map(([k, v]) => ({ key: k, value: { scalar: v } }));
          const components = r.record['components'];
          const slides = r.record['slides'];
          if (Array.isArray(components)) entry.push({ key: 'components', value: { list: components.map((c) => ({ flow: component(c) })) } });
          if (Array.isArray(slides)) entry.push({ key: 'slides', value: { list: slides.map((s) => ({ list: (Array.isArray(s) ? s : []).map((c) => ({ flow: component(c) })) })) } });
          return { key: cardKeys.get(r.id) ?? r.id, value: { map: entry }, ...comment(comments, r) };
        }),
      },
    });
    for (const r of cards) bind('card', [{ collection: 'cards', key: cardKeys.get(r.id) ?? r.id }], r.id);
  }

  // conversation cards, their media by logical name (the format is the endpoint that holds them)
  const conversationCards = records(live, 'conversation_card');
  const conversationKeys = named('conversation_card', conversationCards, (r) => str(r.record['name']));
  if (conversationCards.length > 0) {
    root.push({
      key: 'conversation_cards',
      value: {
        map: sorted(conversationCards, conversationKeys).map((r) => {
          const fields = manifestFieldsOf(KINDS.conversation_card, r.record, names);
          const [first, ...rest] = fields;
          const ordered = first?.[0] === 'name' ? [first, ['format', r.record['format']] as [string, unknown], ...rest] : [['format', r.record['format']] as [string, unknown], ...fields];
          return { key: conversationKeys.get(r.id) ?? r.id, value: { map: ordered.map(([k, v]) => ({ key: k, value: { scalar: v } })) }, ...comment(comments, r) };
        }),
      },
    });
    for (const r of conversationCards) bind('conversation_card', [{ collection: 'conversation_cards', key: conversationKeys.get(r.id) ?? r.id }], r.id);
  }

  // posts, drafts and scheduled posts of the account's FULL promotable user (the author a manifest that names none writes as)
  const publishedSchedules = records(live, 'scheduled_post').filter((r) => r.record['scheduled_status'] !== undefined && r.record['scheduled_status'] !== 'SCHEDULED');
  for (const kind of POST_KINDS) {
    const d = KINDS[kind];
    const objects = records(live, kind).filter((r) => !publishedSchedules.includes(r));
    const keys = named(kind, objects, (r) => str(r.record['name']) ?? leadingWords(r.record['text']));
    if (objects.length === 0) continue;
    root.push({
      key: d.address.collection,
      ...(kind === 'post' ? { comment: 'promoted-only posts: the service cannot change or delete them; a change but of the name makes a new post' } : {}),
      value: { map: sorted(objects, keys).map((r) => ({ key: keys.get(r.id) ?? r.id, value: { map: postFields(d, r.record, names).map(([k, v]) => ({ key: k, value: { scalar: v } })) }, ...comment(comments, r) })) },
    });
    for (const r of objects) bind(kind, [{ collection: d.address.collection, key: keys.get(r.id) ?? r.id }], r.id);
  }
  if (publishedSchedules.length > 0) {
    footer.push(`scheduled posts: ${publishedSchedules.length} already published (${publishedSchedules.map((r) => r.id).sort().join(', ')}) are not in this manifest: the service no longer changes them, and the posts they became are under posts`);
    warnings.push(`${publishedSchedules.length} scheduled post(s) of account ${accountId} already published are not in the manifest`);
  }

  // custom audiences: without members; flexible ones and those shared with the account are reported
  const allAudiences = records(live, 'custom_audience');
  const audiences = allAudiences.filter((r) => r.record['audience_type'] !== 'FLEXIBLE' && r.record['is_owner'] !== false);
  for (const r of allAudiences.filter((a) => !audiences.includes(a))) {
    const why = r.record['audience_type'] === 'FLEXIBLE' ? 'flexible audiences are not generated yet' : 'it is shared with this account by another, which owns it';
    footer.push(`custom audience ${r.id} (${JSON.stringify(str(r.record['name']) ?? '')}) is not in this manifest: ${why}`);
    warnings.push(`custom audience ${r.id} is not in the manifest: ${why}`);
  }
  const audienceKeys = named('custom_audience', audiences, (r) => str(r.record['name']));
  const permissions = records(live, 'audience_permission');
  if (audiences.length > 0) {
    root.push({
      key: 'custom_audiences',
      comment: 'members are not read from the service and not managed here: add users: { file: ... } to manage them',
      value: {
        map: sorted(audiences, audienceKeys).map((r) => {
          const key = audienceKeys.get(r.id) ?? r.id;
          const entry: Entry[] = manifestFieldsOf(KINDS.custom_audience, r.record, names).map(([k, v]) => ({ key: k, value: { scalar: v } }));
          const grants = permissions.filter((p) => String(p.record['custom_audience_id']) === r.id).sort((a, b) => (String(a.record['granted_account_id']) < String(b.record['granted_account_id']) ? -1 : 1));
          if (grants.length > 0) {
            entry.push({ key: 'permissions', value: { map: grants.map((p) => ({ key: String(p.record['granted_account_id']), value: { scalar: p.record['permission_level'] } })) } });
            for (const p of grants) bind('audience_permission', [{ collection: 'custom_audiences', key }, { collection: 'permissions', key: String(p.record['granted_account_id']) }], p.id);
          }
          return { key, value: { map: entry }, ...comment(comments, r) };
        }),
      },
    });
    for (const r of audiences) bind('custom_audience', [{ collection: 'custom_audiences', key: audienceKeys.get(r.id) ?? r.id }], r.id);
  }

  // the do-not-reach list, without its members
  const doNotReach = records(live, 'do_not_reach_list')[0];
  if (doNotReach !== undefined) {
    const entry: Entry[] = manifestFieldsOf(KINDS.do_not_reach_list, doNotReach.record, names).map(([k, v]) => ({ key: k, value: { scalar: v } }));
    root.push({ key: 'do_not_reach', comment: 'its users are not read from the service and not managed here: add users: { file: ... } to manage them', value: { map: entry } });
    bind('do_not_reach_list', [{ collection: 'do_not_reach', key: '' }], doNotReach.id);
  }

  // campaigns, their line items, and what those carry
  const campaigns = records(live, 'campaign');
  const campaignKeys = named('campaign', campaigns, (r) => str(r.record['name']));
  if (campaigns.length > 0) {
    root.push({
      key: 'campaigns',
      value: {
        map: sorted(campaigns, campaignKeys).map((c) => {
          const cKey = campaignKeys.get(c.id) ?? c.id;
          const cSteps: AddressStep[] = [{ collection: 'campaigns', key: cKey }];
          bind('campaign', cSteps, c.id);
          const entry: Entry[] = manifestFieldsOf(KINDS.campaign, c.record, names).map(([k, v]) => ({ key: k, value: { scalar: v } }));
          const under = childrenOf(live, 'line_item', KINDS.line_item.parentField ?? '', c.id);
          const liKeys = keysFor(KINDS.line_item, under, (r) => str(r.record['name']), `${formatAddress({ kind: 'campaign', steps: cSteps })}.line_items`);
          if (under.length > 0) {
            entry.push({
              key: 'line_items',
              value: { map: sorted(under, liKeys).map((li) => ({ key: liKeys.get(li.id) ?? li.id, value: { map: lineItemEntry(live, li, [...cSteps, { collection: 'line_items', key: liKeys.get(li.id) ?? li.id }], names, bind) }, ...comment(comments, li) })) },
            });
          }
          return { key: cKey, value: { map: entry }, ...comment(comments, c) };
        }),
      },
    });
  }

  // every kind adsctl manages is written, or said not to be: never left out silently
  for (const d of Object.values(KINDS)) {
    if (NOT_WRITTEN[d.kind] !== undefined || (WRITTEN.has(d.kind) && !input.unread.includes(d.kind))) continue;
    footer.push(`${d.address.collection}: not read by adsctl generate yet; any ${d.noun}s of the account are not in this manifest`);
    warnings.push(`${d.noun}s are not generated yet: any in account ${accountId} are not in the manifest`);
  }
  const header = [
    `yaml-language-server: $schema=${input.schemaPath}`,
    '',
    `Generated by adsctl generate from account ${accountId} at ${input.endpoint} on ${input.readAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}.`,
    'Logical names are made from the objects\' names; the state binds each to its live object.',
  ];
  return { accountId, fileName: `${accountId}.yaml`, text: manifestText(header, root, footer), bindings, warnings };
}

function comment(comments: ReadonlyMap<string, string>, r: LiveResource): { comment?: string } {
  const text = comments.get(`${r.kind}:${r.id}`);
  return text === undefined ? {} : { comment: text };
}

/** The post kinds, in the order of their sections. */
const POST_KINDS: readonly ResourceKind[] = ['post', 'draft_post', 'scheduled_post'];

/** A post's key when it has no name: its first words. */
function leadingWords(text: unknown): string | undefined {
  return typeof text === 'string' ? text.split(/\s+/).filter((w) => w !== '').slice(0, 5).join(' ') : undefined;
}

/**
 * A post's, draft's or scheduled post's fields: its card (`card:` or `conversation_card:`) and
 * media (`media:`) by logical name where the manifest holds them (raw `card_uri` and `media_keys`
 * otherwise); the author left out (every post read is the FULL promotable user's, the author of a
 * post that names none), and the service's defaults too, as for every kind.
 */
function postFields(d: KindDescriptor, record: Readonly<Record<string, unknown>>, names: NamesById): Array<[string, unknown]> {
  const skip = new Set(['card_uri', 'media_keys', 'as_user_id']);
  const out = manifestFieldsOf(d, record, names, skip);
  const uri = str(record['card_uri']);
  if (uri !== undefined) {
    const id = uri.startsWith('card://') ? uri.slice('card://'.length) : uri;
    const card = names.get('cards')?.get(id);
    const conversation = names.get('conversation_cards')?.get(id);
    out.push(card !== undefined ? ['card', card] : conversation !== undefined ? ['conversation_card', conversation] : ['card_uri', uri]);
  }
  const media = Array.isArray(record['media_keys']) ? record['media_keys'].map(String) : [];
  if (media.length > 0) {
    const byName = media.map((m) => names.get('media')?.get(m));
    out.push(byName.every((n) => n !== undefined) ? ['media', byName] : ['media_keys', media]);
  }
  return out;
}

/** The kinds listed under a line item (their descriptors' parent), each keyed by what identifies it, in registry order. */
const LINE_ITEM_LISTS: readonly ResourceKind[] = Object.values(KINDS).filter((d) => d.parent === 'line_item' && WRITTEN.has(d.kind)).map((d) => d.kind);

/** A line item's fields and the lists under it. */
function lineItemEntry(live: LiveAccount, li: LiveResource, steps: AddressStep[], names: NamesById, bind: (kind: ResourceKind, steps: AddressStep[], id: string) => void): Entry[] {
  bind('line_item', steps, li.id);
  const entry: Entry[] = manifestFieldsOf(KINDS.line_item, li.record, names).map(([k, v]) => ({ key: k, value: { scalar: v } }));
  for (const kind of LINE_ITEM_LISTS) {
    const d = KINDS[kind];
    const items = childrenOf(live, kind, d.parentField ?? '', li.id);
    if (items.length === 0) continue;
    const written = items.map((r) => listItem(d, r, names)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const w of written) bind(kind, [...steps, { collection: d.address.collection, key: w.key }], w.id);
    entry.push({ key: d.address.collection, value: { list: written.map((w) => w.node) } });
  }
  return entry;
}

/** Collections whose objects a list item names as `<collection>.<name>` (`promoted_posts: [posts.launch]`). */
const ITEMS_NAMED_BY_KEY: ReadonlySet<string> = new Set(['posts']);

/** A list item of kind `d`: its key in the address, and how it is written (the bare id when nothing else is and the schema takes one). */
function listItem(d: KindDescriptor, r: LiveResource, names: NamesById): { key: string; id: string; node: Node } {
  const shape = d.address;
  if (shape.key === 'targeting') {
    const type = String(r.record['targeting_type']);
    const value = String(r.record['targeting_value']);
    const operator = String(r.record['operator_type'] ?? 'EQ');
    const fields = manifestFieldsOf(d, r.record, names);
    const audience = d.targets?.(r.record) === undefined ? undefined : names.get('custom_audiences')?.get(value);
    if (audience !== undefined) {
      const flow = fields.map(([k, v]): [string, unknown] => (k === 'targeting_value' ? ['custom_audience', audience] : [k, v]));
      return { key: targetingKey(type, `custom_audiences.${audience}`, operator), id: r.id, node: { flow } };
    }
    return { key: targetingKey(type, value, operator), id: r.id, node: { flow: fields } };
  }
  const field = shape.key === 'value' ? shape.field : 'id';
  // an item naming a post of the manifest (a promoted post) names it `posts.NAME`
  for (const collection of (d.manifest.named ?? []).filter((c) => ITEMS_NAMED_BY_KEY.has(c))) {
    const name = names.get(collection)?.get(String(r.record[field]));
    if (name !== undefined) return { key: `${collection}.${name}`, id: r.id, node: { scalar: `${collection}.${name}` } };
  }
  const key = String(r.record[field]);
  const rest = manifestFieldsOf(d, r.record, names, new Set([field]));
  return { key, id: r.id, node: rest.length === 0 && manifestTakesScalar(d.manifest.def) ? { scalar: key } : { flow: [[field, key], ...rest] } };
}

/** The manifests of `accounts`, one each. */
export function generateManifests(accounts: readonly GenerateInput[]): GeneratedManifest[] {
  return accounts.map(generateOne);
}
