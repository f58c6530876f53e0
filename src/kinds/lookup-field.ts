/** Which field of a kind each of the service's lookups checks, as its descriptor declares (`lookups`). */
import type { LookupNeed } from './descriptor.js';
import type { ResourceKind } from './kind.js';
import { KINDS } from './registry.js';

/** The field of `kind` that lookup `need` checks; undefined when the kind is not checked against it. */
export function lookupField(kind: ResourceKind, need: LookupNeed): string | undefined {
  return KINDS[kind].lookups.find((use) => use.need === need)?.field;
}
