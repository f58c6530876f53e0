/**
 * Imports adopt children (docs/architecture.md): a desired resource that neither the state nor an
 * import binds, under a bound parent that an import names or that sits under one, is bound to the
 * live child of that parent with the same identity (src/kinds/adoption.ts) — a line item by name,
 * product type and objective, a criterion by type, value and operator, a promotion by post or user
 * id. Identity values are the manifest's, references resolved: a criterion naming an audience of
 * the manifest matches the audience's bound id. A child that matches nothing is created, as
 * before; one that matches several is an error (`import-ambiguous`), since only an import entry
 * can say which one is meant.
 */
import { errorAt } from '../diag/diagnostic.js';
import { ADOPTED, type AdoptionIdentity } from '../kinds/adoption.js';
import { attributeOf, KINDS } from '../kinds/registry.js';
import type { ResourceKind } from '../kinds/kind.js';
import type { LiveResource } from '../live/types.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredResource } from '../manifest/types.js';
import { desiredValues } from './desired-values.js';
import { desiredIndex, holderKey, stateIndex, type DiffContext } from './diff-context.js';
import { valuesEqual } from './equality.js';
import { normaliseValue } from './normalise.js';
import { isUnknownRef } from './types.js';

/** The live object a desired child is adopted to. */
interface Adopted {
  id: string;
  record: Readonly<Record<string, unknown>>;
}

/** The live records of `kind` by the id of their parent (built on first use, once per kind). */
function childrenOf(ctx: DiffContext, kind: ResourceKind, parentId: string): readonly LiveResource[] {
  let byParent = ctx.liveChildren.get(kind);
  if (byParent === undefined) {
    byParent = new Map();
    const parentField = KINDS[kind].parentField ?? '';
    for (const r of ctx.input.live.resources.get(kind)?.values() ?? []) {
      const parent = String(r.record[parentField]);
      const siblings = byParent.get(parent);
      if (siblings === undefined) byParent.set(parent, [r]);
      else siblings.push(r);
    }
    ctx.liveChildren.set(kind, byParent);
  }
  return byParent.get(parentId) ?? [];
}

/** The desired identity values of `resource`, normalised; undefined when one is left out or known only after apply. */
function identityValues(ctx: DiffContext, resource: DesiredResource, identity: AdoptionIdentity): Record<string, unknown> | undefined {
  const { after } = desiredValues(resource, KINDS[resource.kind], ctx.resolve, undefined);
  const values: Record<string, unknown> = {};
  for (const field of identity.fields) {
    const value = after[field] ?? normaliseValue(attributeOf(resource.kind, field)?.shape ?? 'scalar', identity.defaults[field]);
    if (value === null || isUnknownRef(value)) return undefined;
    values[field] = value;
  }
  return values;
}

function matches(kind: ResourceKind, identity: AdoptionIdentity, wanted: Readonly<Record<string, unknown>>, record: Readonly<Record<string, unknown>>): boolean {
  return identity.fields.every((field) => {
    const shape = attributeOf(kind, field)?.shape ?? 'scalar';
    return valuesEqual(shape, normaliseValue(shape, record[field] ?? identity.defaults[field]), wanted[field]);
  });
}

/** True when the live object `key` already backs another resource: an import of this plan, or a state entry the manifest still declares. */
function taken(ctx: DiffContext, key: string): boolean {
  if (ctx.imports.has(key)) return true;
  const bound = stateIndex(ctx).get(key);
  return bound !== undefined && desiredIndex(ctx).has(bound);
}

/**
 * The live child `resource` (at `text`) is adopted to, or undefined when its kind is not adopted,
 * its parent adopts nothing, or no free live child has its identity. Several matches are reported
 * at the resource and adopt none.
 */
export function adoptChild(ctx: DiffContext, resource: DesiredResource, text: string): Adopted | undefined {
  const identity = ADOPTED.get(resource.kind);
  if (identity === undefined || resource.parent === undefined) return undefined;
  const parentText = formatAddress(resource.parent);
  const parentId = ctx.adopting.get(parentText);
  if (parentId === undefined) return undefined;
  const wanted = identityValues(ctx, resource, identity);
  if (wanted === undefined) return undefined;
  const found = childrenOf(ctx, resource.kind, parentId).filter((r) => !taken(ctx, holderKey(resource.kind, r.id)) && matches(resource.kind, identity, wanted, r.record));
  if (found.length === 1) return { id: found[0]!.id, record: found[0]!.record };
  if (found.length > 1) {
    const noun = KINDS[resource.kind].noun;
    const ids = found.map((r) => r.id).sort();
    ctx.diagnostics.push(
      errorAt(
        'import-ambiguous',
        `${text} matches ${found.length} live objects under ${parentText} by ${identity.fields.join(', ')} (${noun} ${ids.join(', ')}); add an import entry naming the one it stands for`,
        resource.source,
      ),
    );
  }
  return undefined;
}
