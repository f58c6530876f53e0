/**
 * A targeting criterion of a line item (the real service's targeting criteria endpoints): no
 * PUT, so every field forces a replacement; `operator_type` defaults to EQ, which the address key
 * already says. Read by the bound line items (`line_item_ids` is required); written through the
 * batch endpoint, 500 a request, Create and Delete only.
 */
import type { TargetingCriterion } from '../manifest/generated/manifest.js';
import { field, required } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { defaultOperator, targetingIdentity } from './targeting-identity.js';
import { batch, listed } from './standard.js';

/** The targeting types whose value is a custom audience. */
const AUDIENCE_TYPES: ReadonlySet<unknown> = new Set(['CUSTOM_AUDIENCE', 'CUSTOM_AUDIENCE_EXPANDED']);

/** A targeting criterion. */
export const TARGETING_CRITERION: KindDescriptor = {
  kind: 'targeting_criterion',
  noun: 'targeting criterion',
  parent: 'line_item',
  parentField: 'line_item_id',
  address: { collection: 'targeting', key: 'targeting' },
  manifest: manifestFields<TargetingCriterion>('TargetingCriterion', {
    plain: ['targeting_type', 'operator_type'],
    ids: ['targeting_value'],
    special: ['custom_audience'],
    named: ['custom_audiences', 'flexible_audiences'],
    identity: targetingIdentity,
    read: defaultOperator,
    duplicate: 'duplicate-targeting',
  }),
  generate: { targetNamed: 'custom_audience' },
  attributes: [
    required('line_item_id', 'id', 'replace'),
    required('targeting_type', 'scalar', 'replace'),
    required('targeting_value', 'id', 'replace'),
    { ...field('operator_type', 'scalar', 'replace'), fallback: () => 'EQ' },
  ],
  computed: ['id', 'name', 'location_type', 'created_at', 'updated_at', 'deleted'],
  read: listed('targeting_criterion', 'parent', { parentParam: 'line_item_ids', required: true }),
  write: { create: batch('targeting_criterion'), delete: batch('targeting_criterion') },
  find: { resource: 'targeting_criterion', filter: ['line_item_ids', 'line_item_id'], identity: ['line_item_id', 'targeting_type', 'targeting_value', 'operator_type'], defaults: { operator_type: 'EQ' } },
  import: { via: 'get', resource: 'targeting_criterion' },
  replaceOrder: 'delete-first',
  sandboxOnly: false,
  retiredWithParent: true,
  owned: true,
  history: 'TARGETING_CRITERIA',
  limits: [],
  lookups: [{ need: 'targeting_values', field: 'targeting_value' }],
  // the service takes an audience criterion only while the audience is targetable (large enough)
  targets: (values) => (AUDIENCE_TYPES.has(values['targeting_type']) ? { field: 'targeting_value', kind: 'custom_audience' } : undefined),
  atomicUnderServing: true,
};
