/**
 * A flexible audience (Part B, Custom audiences, the batch endpoint): a name and a tree of
 * segments — groups joined by AND or OR, leaves naming custom audiences (by logical name in the
 * manifest) with a lookback window, a frequency and whether they exclude. Flexible audiences are
 * immutable: any change is a replacement. The service fills in each leaf's defaults (30 days,
 * frequency 1, NUM_GTE, negate true), so both sides are compared with them filled in. They are
 * created and deleted through the audiences' batch endpoint, 10 a request.
 */
import type { FlexibleAudience } from '../manifest/generated/manifest.js';
import { field, required } from './attribute.js';
import { asMap, asSeq, childPointer, plainValue, type YNode } from './entry-nodes.js';
import type { EntryContext, EntryReader, EntryResource } from './manifest-reading.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { batch } from './standard.js';

const LEAF_DEFAULTS: Readonly<Record<string, unknown>> = { lookback_window: 30, frequency: 1, frequency_comparator: 'NUM_GTE', negate: true };

/** A segment tree with every leaf's defaults filled in, as the service stores it. */
function withLeafDefaults(node: unknown): unknown {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
  const n = node as Record<string, unknown>;
  if (Array.isArray(n['child_segments'])) return { boolean_operator: n['boolean_operator'] ?? null, child_segments: n['child_segments'].map(withLeafDefaults) };
  return { ...LEAF_DEFAULTS, ...Object.fromEntries(Object.entries(n).filter(([, v]) => v !== undefined && v !== null)) };
}

/** A segment tree with each leaf's `custom_audience` (a logical name) as a reference to its id. */
function segmentNode(ctx: EntryContext, resource: EntryResource, node: YNode, pointer: string, path: string): unknown {
  const map = asMap(node);
  if (map === undefined) return plainValue(node);
  const children = asSeq(map.byKey.get('child_segments')?.value);
  if (children !== undefined) {
    const at = childPointer(pointer, 'child_segments');
    return {
      ...(map.byKey.has('boolean_operator') ? { boolean_operator: plainValue(map.byKey.get('boolean_operator')!.value) } : {}),
      child_segments: children.items.map((child, i) => segmentNode(ctx, resource, child, childPointer(at, i), `${path}.child_segments[${i}]`)),
    };
  }
  const leaf = { ...(plainValue(node) as Record<string, unknown>) };
  const name = map.byKey.get('custom_audience');
  if (name === undefined) return leaf;
  delete leaf['custom_audience'];
  if (map.byKey.has('custom_audience_id')) {
    ctx.report(childPointer(pointer, 'custom_audience'), 'reference-conflict', 'custom_audience and custom_audience_id both say which audience; keep one', ctx.rangeOf(name.value));
    return leaf;
  }
  const ref = ctx.reference(name.value, childPointer(pointer, 'custom_audience'), 'custom_audiences', 'custom_audience');
  if (ref !== undefined) {
    leaf['custom_audience_id'] = ref;
    resource.references[`${path}.custom_audience_id`] = ref.$target;
  }
  return leaf;
}

/** A flexible audience's `segments`, audiences named by logical name, with the service's defaults of each leaf as it stores them: what is applied is what it shows. */
const readSegments: EntryReader = (ctx, resource, map, pointer) => {
  const entry = map.byKey.get('segments');
  if (entry === undefined) return;
  resource.attributes['segments'] = withLeafDefaults(segmentNode(ctx, resource, entry.value, childPointer(pointer, 'segments'), 'segments'));
  resource.attributeSources['segments'] = ctx.rangeOf(entry.value);
};

function sameTree(a: unknown, b: unknown): boolean {
  return JSON.stringify(withLeafDefaults(a), sortKeys) === JSON.stringify(withLeafDefaults(b), sortKeys);
}

function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

/** A flexible audience. */
export const FLEXIBLE_AUDIENCE: KindDescriptor = {
  kind: 'flexible_audience',
  noun: 'flexible audience',
  parent: 'account',
  address: { collection: 'flexible_audiences', key: 'name' },
  manifest: manifestFields<FlexibleAudience>('FlexibleAudience', { plain: ['name'], special: ['segments'], named: ['custom_audiences'], read: readSegments }),
  attributes: [
    // fixed by the kind: the batch endpoint's Create needs it
    { ...field('audience_type', 'scalar', 'replace'), fallback: () => 'FLEXIBLE' },
    required('name', 'scalar', 'replace'), { ...required('segments', 'json', 'replace'), equivalent: (desired, live) => sameTree(desired, live) },
  ],
  computed: ['id', 'audience_size', 'targetable', 'targetable_types', 'reasons_not_targetable', 'is_owner', 'permission_level', 'description', 'created_at', 'updated_at', 'deleted'],
  read: {
    via: 'custom',
    read: async (api, accountId, { bound }) =>
      bound.size === 0 ? [] : (await api.listWhere('custom_audience', accountId, 'custom_audience_ids', [...bound])).map((r) => r as unknown as Record<string, unknown>).filter((r) => r['audience_type'] === 'FLEXIBLE'),
  },
  write: { create: batch('flexible_audience'), delete: batch('flexible_audience') },
  find: { resource: 'custom_audience', identity: ['name'] },
  import: { via: 'read' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: false,
  owned: false,
  limits: [],
  lookups: [],
};
