/**
 * Which live children an import adopts (docs/architecture.md, "Imports adopt children"), derived
 * from the descriptors alone: a kind that sits under a parent other than the account is
 * recognised under an imported parent by the fields that recognise a create whose answer was lost
 * (`find.identity`, the parent field left out, `find.defaults` filling in what either side leaves
 * out), or, for a kind without `find` kept in a list keyed by a value, by that value
 * (`address.key` `value`). A kind with neither (a membership, the one under its audience, with
 * nothing to recognise it by) is never adopted: the manifest writes it anew.
 */
import type { KindDescriptor } from './descriptor.js';
import type { ResourceKind } from './kind.js';
import { DESCRIPTORS } from './registry.js';

/** The fields that say which live child a desired child is, and the values they take when left out. */
export interface AdoptionIdentity {
  fields: readonly string[];
  defaults: Readonly<Record<string, unknown>>;
}

const NO_DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The identity `d`'s records are adopted by under an imported parent; undefined when they are never adopted. */
function adoptionIdentity(d: KindDescriptor): AdoptionIdentity | undefined {
  if (d.parentField === undefined) return undefined;
  const named = d.find?.identity ?? (d.address.key === 'value' ? [d.address.field] : []);
  const fields = named.filter((f) => f !== d.parentField);
  return fields.length === 0 ? undefined : { fields, defaults: d.find?.defaults ?? NO_DEFAULTS };
}

/** Every kind an import adopts, with its identity. */
export const ADOPTED: ReadonlyMap<ResourceKind, AdoptionIdentity> = new Map(
  DESCRIPTORS.flatMap((d): Array<[ResourceKind, AdoptionIdentity]> => {
    const identity = adoptionIdentity(d);
    return identity === undefined ? [] : [[d.kind, identity]];
  }),
);

/** The kinds whose import adopts children: the parents of the adopted kinds. */
export const ADOPTING_PARENTS: ReadonlySet<ResourceKind> = new Set(DESCRIPTORS.flatMap((d) => (ADOPTED.has(d.kind) && d.parent !== undefined ? [d.parent] : [])));
