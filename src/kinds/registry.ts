/**
 * The registry of kind descriptors, and what follows from them alone: which kind sits in which
 * collection, the order in which the diff decides kinds (a kind after every kind it can sit under
 * or refer to, from the kind graph), and which kinds others refer to.
 */
import { buildGraph } from '../graph/graph.js';
import { ACCOUNT } from './account.js';
import { ACCOUNT_FEATURE } from './account-feature.js';
import { CAMPAIGN } from './campaign.js';
import type { KindDescriptor } from './descriptor.js';
import { FUNDING_INSTRUMENT } from './funding-instrument.js';
import type { ResourceKind } from './kind.js';
import { LINE_ITEM } from './line-item.js';
import { LINE_ITEM_CURATED_CATEGORY } from './line-item-curated-category.js';
import { MEDIA_CREATIVE } from './media-creative.js';
import { PROMOTED_ACCOUNT } from './promoted-account.js';
import { PROMOTED_POST } from './promoted-post.js';
import { TARGETING_CRITERION } from './targeting-criterion.js';
import { MEDIA } from './media.js';
import { CARD } from './card.js';
import { CONVERSATION_CARD } from './conversation-card.js';
import { POST } from './post.js';
import { DRAFT_POST, SCHEDULED_POST } from './draft-post.js';
import { CUSTOM_AUDIENCE } from './custom-audience.js';
import { FLEXIBLE_AUDIENCE } from './flexible-audience.js';
import { AUDIENCE_MEMBERS, DO_NOT_REACH_MEMBERS } from './members.js';
import { AUDIENCE_PERMISSION } from './audience-permission.js';
import { TAILORED_AUDIENCE_PERMISSION } from './tailored-audience-permission.js';
import { DO_NOT_REACH_LIST } from './do-not-reach-list.js';

/** Every kind's descriptor, as written in its file (the registry adds the derived child collections). */
const DECLARED: Readonly<Record<ResourceKind, KindDescriptor>> = {
  account: ACCOUNT,
  account_feature: ACCOUNT_FEATURE,
  funding_instrument: FUNDING_INSTRUMENT,
  campaign: CAMPAIGN,
  line_item: LINE_ITEM,
  targeting_criterion: TARGETING_CRITERION,
  line_item_curated_category: LINE_ITEM_CURATED_CATEGORY,
  promoted_post: PROMOTED_POST,
  promoted_account: PROMOTED_ACCOUNT,
  media_creative: MEDIA_CREATIVE,
  media: MEDIA,
  card: CARD,
  conversation_card: CONVERSATION_CARD,
  post: POST,
  draft_post: DRAFT_POST,
  scheduled_post: SCHEDULED_POST,
  custom_audience: CUSTOM_AUDIENCE,
  flexible_audience: FLEXIBLE_AUDIENCE,
  audience_members: AUDIENCE_MEMBERS,
  audience_permission: AUDIENCE_PERMISSION,
  tailored_audience_permission: TAILORED_AUDIENCE_PERMISSION,
  do_not_reach_list: DO_NOT_REACH_LIST,
  do_not_reach_members: DO_NOT_REACH_MEMBERS,
};

/**
 * A kind's child collections in the order the manifest reads them: those its descriptor lists
 * (`children`, or for the root kind `sections`), then those of every other kind registered under
 * it, in registry order, so a new child kind needs no line in its parent's file.
 */
function orderedChildren(parent: KindDescriptor): string[] {
  const out = [...(parent.address.key === 'root' ? (parent.manifest.sections ?? []) : parent.manifest.children)];
  for (const d of Object.values(DECLARED)) {
    if (d.parent === parent.kind && !out.includes(d.address.collection)) out.push(d.address.collection);
  }
  return out;
}

/** Every kind's descriptor; a kind's `manifest.children` holds every collection registered under it (none for the root, whose sections are the file's). */
export const KINDS: Readonly<Record<ResourceKind, KindDescriptor>> = Object.fromEntries(
  Object.entries(DECLARED).map(([kind, d]) => [kind, d.address.key === 'root' ? d : { ...d, manifest: { ...d.manifest, children: orderedChildren(d) } }]),
) as Record<ResourceKind, KindDescriptor>;

/** Each kind's child collections, in the order the manifest reads them (the root's: the file's top-level sections). */
export const CHILD_ORDER: ReadonlyMap<ResourceKind, readonly string[]> = new Map(Object.values(DECLARED).map((d) => [d.kind, orderedChildren(d)]));

/**
 * Finds a kind's descriptor. The plan stage takes one as a parameter (defaulting to `kindOf`) so
 * that its scheduling can be tested with kinds that are not registered yet.
 */
export type KindLookup = (kind: ResourceKind) => KindDescriptor;

/** The registered descriptor of `kind`. */
export const kindOf: KindLookup = (kind) => KINDS[kind];

/** Every descriptor, in registry order. */
export const DESCRIPTORS: readonly KindDescriptor[] = Object.values(KINDS);

/** True when `kind` names a registered kind (state files hold plain strings). */
export function isResourceKind(kind: string): kind is ResourceKind {
  return Object.hasOwn(KINDS, kind);
}

/** The root kind (the account): the one descriptor whose address is `root`. */
export const ROOT_KIND: KindDescriptor = (() => {
  const roots = DESCRIPTORS.filter((d) => d.address.key === 'root');
  if (roots.length !== 1 || roots[0] === undefined) throw new Error(`the registry needs exactly one root kind, not ${roots.length}`);
  return roots[0];
})();

/** The kind of each collection under each parent kind (the account's top-level sections, ...). */
export const COLLECTIONS: ReadonlyMap<ResourceKind, ReadonlyMap<string, ResourceKind>> = (() => {
  const out = new Map<ResourceKind, Map<string, ResourceKind>>();
  for (const d of DESCRIPTORS) {
    if (d.parent === undefined) continue;
    const under = out.get(d.parent) ?? new Map<string, ResourceKind>();
    under.set(d.address.collection, d.kind);
    out.set(d.parent, under);
  }
  return out;
})();

/** The collection of each reference target (`funding_instruments`) → its kind. */
const TOP_LEVEL = COLLECTIONS.get('account') ?? new Map<string, ResourceKind>();

/** The kinds a kind depends on by its descriptor: its parent and the kinds its references name. */
export function kindDependencies(d: KindDescriptor): ResourceKind[] {
  const deps = new Set<ResourceKind>();
  if (d.parent !== undefined) deps.add(d.parent);
  for (const collection of [...Object.values(d.manifest.refs).map((r) => r.collection), ...(d.manifest.named ?? [])]) {
    const target = TOP_LEVEL.get(collection);
    if (target !== undefined) deps.add(target);
  }
  return [...deps];
}

/**
 * The diff's decision rank of every kind: 0 for kinds that depend on nothing, else one more than
 * the highest rank of the kinds it depends on, so a reference always finds its target decided.
 */
export const DECISION_RANK: Readonly<Record<ResourceKind, number>> = (() => {
  const graph = buildGraph(DESCRIPTORS.map((d) => ({ id: d.kind, dependsOn: kindDependencies(d) })));
  if (!graph.ok) throw new Error(`kind descriptors depend on each other in a cycle: ${graph.cycle.join(' → ')}`);
  const rank = {} as Record<ResourceKind, number>;
  graph.layers.forEach((layer, i) => {
    for (const kind of layer) rank[kind as ResourceKind] = i;
  });
  return rank;
})();

/** The number of distinct decision ranks. */
export const RANK_COUNT = Math.max(...Object.values(DECISION_RANK)) + 1;

/** The kinds other resources name, as their parent or by a reference; the diff keeps their decisions. */
export const REFERABLE_KINDS: ReadonlySet<ResourceKind> = new Set(DESCRIPTORS.flatMap((d) => kindDependencies(d)));

/** The names `lifecycle.ignore_changes` accepts for a kind, mapped to the API field each means. */
export function ignorableFields(d: KindDescriptor): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const f of [...d.manifest.plain, ...d.manifest.ids, ...d.manifest.times]) names.set(f, f);
  for (const [short, api] of Object.entries(d.manifest.money)) {
    names.set(short, api);
    names.set(api, api);
  }
  for (const [name, ref] of Object.entries(d.manifest.refs)) names.set(name, ref.field);
  // an owned collection: members made outside adsctl are then left alone
  for (const child of DESCRIPTORS) if (child.owned && child.parent === d.kind) names.set(child.address.collection, child.address.collection);
  return names;
}

const byField = new Map<ResourceKind, ReadonlyMap<string, KindDescriptor['attributes'][number]>>(DESCRIPTORS.map((d) => [d.kind, new Map(d.attributes.map((a) => [a.field, a]))]));

/** The attribute rule of `field` for `kind`, if the kind compares that field. */
export function attributeOf(kind: ResourceKind, field: string): KindDescriptor['attributes'][number] | undefined {
  return byField.get(kind)?.get(field);
}
