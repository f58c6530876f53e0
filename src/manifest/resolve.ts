/**
 * One manifest file's tree → its account's resources, in file order: the account, its features,
 * funding instruments, Part B objects, campaigns, their line items and the line items' children.
 * Maps of logical names give map-keyed addresses; lists (targeting, promoted posts, ...) are keyed
 * by the identity the API gives their items, and a second item with the same identity is an error.
 */
import { quoteValue } from '../diag/quote.js';
import { didYouMean } from '../diag/suggest.js';
import { ACCOUNT_ADDRESS, childAddress, formatAddress, targetingKey } from './address.js';
import { readFields } from './attributes.js';
import { findResource, rangeOf, report, type FileContext } from './context.js';
import { KINDS } from '../kinds/registry.js';
import { checkPostContent, namedReference, readCardContent, readSegments, readMediaFile, readMembers, readPermissions, readPostMedia, type AddResource } from './part-b.js';
import { COLLECTIONS } from '../kinds/registry.js';
import { asMap, asSeq, childPointer, idValue, stringValue } from './nodes.js';
import type { DesiredResource, ResourceAddress, ResourceKind } from './types.js';
import type { YMap, YNode } from './yaml-tree.js';

const DUPLICATE_CODES: Partial<Record<ResourceKind, string>> = {
  targeting_criterion: 'duplicate-targeting',
  promoted_post: 'duplicate-promoted-post',
};

function addResource(
  ctx: FileContext,
  address: ResourceAddress,
  parent: ResourceAddress | undefined,
  start: number,
  end: number,
  pointer: string,
): DesiredResource | undefined {
  const source = ctx.doc.range(start, end);
  const existing = findResource(ctx, address);
  if (existing !== undefined) {
    const what = address.kind.replace(/_/g, ' ');
    report(ctx, pointer, DUPLICATE_CODES[address.kind] ?? 'duplicate-entry', `${formatAddress(address)} is listed twice; list each ${what} once`, source, [
      { message: 'first listed here', range: existing.source },
    ]);
    return undefined;
  }
  const resource: DesiredResource = {
    address,
    kind: address.kind,
    attributes: {},
    references: {},
    ...(parent === undefined ? {} : { parent }),
    dependsOn: [],
    lifecycle: { preventDestroy: false, ignoreChanges: [] },
    source,
    attributeSources: {},
  };
  ctx.resources.push(resource);
  ctx.byAddress.set(formatAddress(address), resource);
  return resource;
}

function sandboxOnly(ctx: FileContext, pointer: string, node: { start: number; end: number }, message: string): void {
  if (ctx.endpoint === 'production') report(ctx, pointer, 'sandbox-only', message, ctx.doc.range(node.start, node.end));
}

/** Binds a resource to the existing object its `id` field names; true when it has one. */
function bindId(ctx: FileContext, resource: DesiredResource, map: YMap, pointer: string): boolean {
  const id = map.byKey.get('id');
  if (id === undefined) return false;
  const value = idValue(id.value);
  if (value === 'invalid') {
    report(ctx, childPointer(pointer, 'id'), 'id-format', `id ${ctx.doc.text.slice(id.value.start, id.value.end)} is not an id as written; write ids as quoted strings`, rangeOf(ctx, id.value));
  } else if (value !== undefined) {
    resource.importId = value;
    resource.attributeSources['import'] = rangeOf(ctx, id.value);
  }
  return true;
}

function resolveAccount(ctx: FileContext, root: YMap): DesiredResource | undefined {
  const entry = root.byKey.get('account');
  const start = entry?.keyStart ?? root.start;
  const end = entry?.value.end ?? root.start;
  const account = addResource(ctx, ACCOUNT_ADDRESS, undefined, start, end, '/account');
  const map = asMap(entry?.value);
  if (account === undefined) return undefined;
  const hasId = map !== undefined && bindId(ctx, account, map, '/account');
  if (map !== undefined) readFields(ctx, account, KINDS.account, map, '/account');
  if (!hasId) {
    sandboxOnly(ctx, '/account', { start, end: entry?.keyEnd ?? start }, 'with endpoint production the account must already exist: give account.id (adsctl creates accounts only in sandbox and local)');
  }
  return account;
}

function resolveFeatures(ctx: FileContext, node: YNode, entryStart: number, entryEnd: number): void {
  sandboxOnly(ctx, '/features', { start: entryStart, end: entryEnd }, 'account features can be added and removed only in sandbox and local, not with endpoint production');
  asSeq(node)?.items.forEach((item, i) => {
    const pointer = childPointer('/features', i);
    const map = asMap(item);
    const key = map === undefined ? stringValue(item) : stringValue(map.byKey.get('feature_key')?.value);
    if (key === undefined) return;
    const feature = addResource(ctx, childAddress(ACCOUNT_ADDRESS, 'features', key), ACCOUNT_ADDRESS, item.start, item.end, pointer);
    if (feature === undefined) return;
    feature.attributes['feature_key'] = key;
    feature.attributeSources['feature_key'] = rangeOf(ctx, map?.byKey.get('feature_key')?.value ?? item);
    if (map !== undefined) readFields(ctx, feature, KINDS.account_feature, map, pointer);
  });
}

function resolveFundingInstrument(ctx: FileContext, resource: DesiredResource, map: YMap, pointer: string, keyStart: number, keyEnd: number): void {
  if (bindId(ctx, resource, map, pointer)) return;
  const name = resource.address.steps[0]?.key ?? '';
  const missing = ['type', 'currency', 'start_time'].filter((field) => !map.byKey.has(field));
  const keyRange = ctx.doc.range(keyStart, keyEnd);
  if (missing.length > 0) {
    const fields = missing.length === 1 ? (missing[0] ?? '') : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1) ?? ''}`;
    report(ctx, pointer, 'missing-field', `funding instrument ${quoteValue(name)} needs id (an existing instrument), or ${fields} to create one in sandbox or local`, keyRange);
  }
  sandboxOnly(ctx, pointer, { start: keyStart, end: keyEnd }, `with endpoint production funding instrument ${quoteValue(name)} must already exist: give its id`);
}

const AUDIENCE_TYPES: ReadonlySet<string> = new Set(['CUSTOM_AUDIENCE', 'CUSTOM_AUDIENCE_EXPANDED']);

/** A targeting criterion's key, and the audience it names by logical name (`custom_audience: newsletter`). */
function targetingIdentity(ctx: FileContext, item: YMap, pointer: string): { key: string; audience?: ResourceAddress } | undefined {
  const type = stringValue(item.byKey.get('targeting_type')?.value);
  if (type === undefined) return undefined;
  const operator = stringValue(item.byKey.get('operator_type')?.value) ?? 'EQ';
  const valueEntry = item.byKey.get('targeting_value');
  const value = valueEntry === undefined ? undefined : idValue(valueEntry.value);
  const audienceEntry = item.byKey.get('custom_audience');
  if (audienceEntry !== undefined) {
    const at = childPointer(pointer, 'custom_audience');
    if (!AUDIENCE_TYPES.has(type)) {
      report(ctx, at, 'reference-type', `custom_audience names an audience, which only targeting_type CUSTOM_AUDIENCE or CUSTOM_AUDIENCE_EXPANDED target (this is ${type})`, rangeOf(ctx, audienceEntry.value));
      return undefined;
    }
    if (valueEntry !== undefined) {
      report(ctx, at, 'reference-conflict', 'custom_audience and targeting_value both say which audience to target; keep one', rangeOf(ctx, audienceEntry.value), [{ message: 'targeting_value is set here', range: rangeOf(ctx, valueEntry.value) }]);
      return undefined;
    }
    // a flexible audience is targeted like any other, by its name under flexible_audiences
    const name = stringValue(audienceEntry.value);
    const collection = name !== undefined && (ctx.names.get('flexible_audiences') ?? []).includes(name) ? 'flexible_audiences' : 'custom_audiences';
    const ref = namedReference(ctx, audienceEntry.value, at, collection, 'custom_audience');
    if (ref === undefined) return undefined;
    return { key: targetingKey(type, `${collection}.${ref.$target.steps[0]?.key ?? ''}`, operator), audience: ref.$target };
  }
  if (value === undefined) {
    report(ctx, pointer, 'missing-field', `targeting criterion ${type} needs targeting_value`, rangeOf(ctx, item));
    return undefined;
  }
  if (value === 'invalid') {
    report(ctx, childPointer(pointer, 'targeting_value'), 'id-format', `targeting_value ${ctx.doc.text.slice(valueEntry?.value.start ?? 0, valueEntry?.value.end ?? 0)} is not a value as written; quote it`, rangeOf(ctx, valueEntry?.value ?? item));
    return undefined;
  }
  return { key: targetingKey(type, value, operator) };
}

/** The media item a media creative names (`media: teaser`), which must be an AMPLIFY_VIDEO upload (its PREROLL asset). */
function preroll(ctx: FileContext, item: YMap, pointer: string): ResourceAddress | undefined {
  const entry = item.byKey.get('media');
  if (entry === undefined) return undefined;
  const at = childPointer(pointer, 'media');
  if (item.byKey.has('account_media_id')) {
    report(ctx, at, 'reference-conflict', 'media and account_media_id both say which account media to use; keep one', rangeOf(ctx, entry.value));
    return undefined;
  }
  const ref = namedReference(ctx, entry.value, at, 'media', 'media');
  if (ref === undefined) return undefined;
  if (findResource(ctx, ref.$target)?.attributes['media_category'] !== 'AMPLIFY_VIDEO') {
    report(ctx, at, 'media-category', `media ${quoteValue(ref.$target.steps[0]?.key ?? '')} has no PREROLL asset: only a video uploaded with media_category AMPLIFY_VIDEO becomes one`, rangeOf(ctx, entry.value));
    return undefined;
  }
  return ref.$target;
}

/** A promoted post's key and, for `posts.NAME` (or `post: NAME`), the post it names. */
function promotedPostIdentity(ctx: FileContext, item: YNode, pointer: string): { key: string; post?: ResourceAddress } | undefined {
  const map = asMap(item);
  const postEntry = map?.byKey.get('post');
  const text = map === undefined ? stringValue(item) : undefined;
  if (postEntry !== undefined || text?.startsWith('posts.') === true) {
    const node = postEntry?.value ?? item;
    const name = postEntry === undefined ? (text ?? '').slice('posts.'.length) : stringValue(postEntry.value);
    if (name === undefined) return undefined;
    const known = ctx.names.get('posts') ?? [];
    if (!known.includes(name)) {
      const where = known.length === 0 ? 'this manifest has no posts' : `it is not defined under posts${didYouMean(name, known)}`;
      report(ctx, postEntry === undefined ? pointer : childPointer(pointer, 'post'), 'unknown-reference', `post ${quoteValue(name)} does not exist: ${where}`, rangeOf(ctx, node));
      return undefined;
    }
    return { key: `posts.${name}`, post: childAddress(ACCOUNT_ADDRESS, 'posts', name) };
  }
  const idNode = map === undefined ? item : map.byKey.get('tweet_id')?.value;
  const id = idNode === undefined ? undefined : idValue(idNode);
  if (id === 'invalid' && idNode !== undefined) report(ctx, pointer, 'id-format', `tweet_id ${quoteValue(ctx.doc.text.slice(idNode.start, idNode.end))} is not an id as written; write ids as quoted strings`, rangeOf(ctx, idNode));
  return id === 'invalid' || id === undefined ? undefined : { key: id };
}

function resolveLineItemChildren(ctx: FileContext, lineItem: DesiredResource, map: YMap, pointer: string): void {
  for (const collection of KINDS.line_item.manifest.children) {
    const kind = COLLECTIONS.get('line_item')?.get(collection);
    if (kind === undefined) continue;
    const shape = KINDS[kind].address;
    const seq = asSeq(map.byKey.get(collection)?.value);
    if (seq === undefined) continue;
    seq.items.forEach((item, i) => {
      const at = childPointer(childPointer(pointer, collection), i);
      const itemMap = asMap(item);
      let key: string | undefined;
      let target: { field: string; address: ResourceAddress } | undefined;
      if (shape.key === 'targeting') {
        const identity = itemMap === undefined ? undefined : targetingIdentity(ctx, itemMap, at);
        key = identity?.key;
        if (identity?.audience !== undefined) target = { field: 'targeting_value', address: identity.audience };
      } else if (kind === 'promoted_post') {
        const identity = promotedPostIdentity(ctx, item, at);
        key = identity?.key;
        if (identity?.post !== undefined) target = { field: 'tweet_id', address: identity.post };
      } else if (kind === 'media_creative' && itemMap?.byKey.has('media') === true) {
        const media = preroll(ctx, itemMap, at);
        if (media !== undefined) {
          key = `media.${media.steps[0]?.key ?? ''}`;
          target = { field: 'media_key', address: media };
        }
      } else if (shape.key === 'value') {
        const idNode = itemMap === undefined ? item : itemMap.byKey.get(shape.field)?.value;
        const id = idNode === undefined ? undefined : idValue(idNode);
        if (id === 'invalid' && idNode !== undefined) report(ctx, at, 'id-format', `${shape.field} ${quoteValue(ctx.doc.text.slice(idNode.start, idNode.end))} is not an id as written; write ids as quoted strings`, rangeOf(ctx, idNode));
        key = id === 'invalid' ? undefined : id;
      }
      if (key === undefined) return;
      const child = addResource(ctx, childAddress(lineItem.address, collection, key), lineItem.address, item.start, item.end, at);
      if (child === undefined) return;
      child.references['line_item_id'] = lineItem.address;
      const descriptor = KINDS[child.kind];
      if (target !== undefined) {
        child.attributes[target.field] = { $target: target.address };
        child.references[target.field] = target.address;
        child.attributeSources[target.field] = rangeOf(ctx, item);
      }
      if (itemMap !== undefined) readFields(ctx, child, descriptor, itemMap, at);
      else if (target === undefined) {
        const field = descriptor.manifest.ids[0] ?? 'id';
        child.attributes[field] = key;
        child.attributeSources[field] = rangeOf(ctx, item);
      }
      if (shape.key === 'targeting' && child.attributes['operator_type'] === undefined) child.attributes['operator_type'] = 'EQ';
    });
  }
}

/** The account's one do-not-reach list and its users. */
function resolveDoNotReach(ctx: FileContext, root: YMap, add: AddResource): void {
  const entry = root.byKey.get('do_not_reach');
  const map = asMap(entry?.value);
  if (entry === undefined || map === undefined) return;
  const list = add(childAddress(ACCOUNT_ADDRESS, 'do_not_reach', ''), ACCOUNT_ADDRESS, entry.keyStart, entry.value.end, '/do_not_reach');
  if (list === undefined) return;
  readFields(ctx, list, KINDS.do_not_reach_list, map, '/do_not_reach');
  readMembers(ctx, add, list, map, '/do_not_reach');
}

function eachEntry(ctx: FileContext, parentMap: YMap, collection: string, parent: ResourceAddress, pointer: string, visit: (resource: DesiredResource, map: YMap, pointer: string, keyStart: number, keyEnd: number) => void): void {
  const map = asMap(parentMap.byKey.get(collection)?.value);
  if (map === undefined) return;
  for (const entry of map.entries) {
    const at = childPointer(childPointer(pointer, collection), entry.key);
    const value = asMap(entry.value);
    if (value === undefined || entry.key.length === 0) continue;
    const end = entry.value.start >= entry.keyEnd ? entry.value.end : entry.keyEnd;
    const resource = addResource(ctx, childAddress(parent, collection, entry.key), parent, entry.keyStart, end, at);
    if (resource === undefined) continue;
    readFields(ctx, resource, KINDS[resource.kind], value, at);
    visit(resource, value, at, entry.keyStart, entry.keyEnd);
  }
}

/** Builds every resource the file's root map declares, in file order, into `ctx`. */
export function resolveResources(ctx: FileContext, root: YMap): void {
  if (resolveAccount(ctx, root) === undefined) return;
  const features = root.byKey.get('features');
  if (features !== undefined) resolveFeatures(ctx, features.value, features.keyStart, features.keyEnd);
  eachEntry(ctx, root, 'funding_instruments', ACCOUNT_ADDRESS, '', (resource, map, pointer, keyStart, keyEnd) => resolveFundingInstrument(ctx, resource, map, pointer, keyStart, keyEnd));
  const add: AddResource = (address, parent, start, end, pointer) => addResource(ctx, address, parent, start, end, pointer);
  eachEntry(ctx, root, 'media', ACCOUNT_ADDRESS, '', (media, map, pointer) => readMediaFile(ctx, media, map, pointer));
  eachEntry(ctx, root, 'cards', ACCOUNT_ADDRESS, '', (card, map, pointer) => readCardContent(ctx, card, map, pointer));
  eachEntry(ctx, root, 'conversation_cards', ACCOUNT_ADDRESS, '', () => undefined);
  for (const collection of ['posts', 'draft_posts', 'scheduled_posts']) {
    eachEntry(ctx, root, collection, ACCOUNT_ADDRESS, '', (post, map, pointer) => {
      readPostMedia(ctx, post, map, pointer);
      checkPostContent(ctx, post, map, pointer);
    });
  }
  eachEntry(ctx, root, 'custom_audiences', ACCOUNT_ADDRESS, '', (audience, map, pointer) => {
    readMembers(ctx, add, audience, map, pointer);
    readPermissions(ctx, add, audience, map, pointer);
  });
  eachEntry(ctx, root, 'flexible_audiences', ACCOUNT_ADDRESS, '', (audience, map, pointer) => readSegments(ctx, audience, map, pointer));
  resolveDoNotReach(ctx, root, add);
  eachEntry(ctx, root, 'campaigns', ACCOUNT_ADDRESS, '', (campaign, map, pointer, keyStart, keyEnd) => {
    if (!map.byKey.has('funding_instrument') && !map.byKey.has('funding_instrument_id')) {
      report(ctx, pointer, 'missing-field', `campaign ${quoteValue(campaign.address.steps[0]?.key ?? '')} needs funding_instrument (a name under funding_instruments) or funding_instrument_id`, ctx.doc.range(keyStart, keyEnd));
    }
    eachEntry(ctx, map, 'line_items', campaign.address, pointer, (lineItem, lineItemMap, lineItemPointer) => {
      lineItem.references['campaign_id'] = campaign.address;
      resolveLineItemChildren(ctx, lineItem, lineItemMap, lineItemPointer);
    });
  });
}
