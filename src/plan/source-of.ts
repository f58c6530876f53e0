/**
 * Where in the manifest a plan check points: the range of one field of a changed resource. Its
 * own file, so validate.ts and the checks it runs (rules, targeting values, audience sizes) share
 * it without importing each other.
 */
import type { SourceRange } from '../diag/source-range.js';
import type { ResourceChange } from '../diff/types.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount } from '../manifest/types.js';

/** The manifest range of `field` of the changed resource (its whole entry when the field is not written there). */
export function sourceOf(desired: DesiredAccount | undefined, change: ResourceChange, field: string): SourceRange | undefined {
  if (desired === undefined) return change.source;
  const text = formatAddress(change.address);
  const r = desired.resources.find((d) => formatAddress(d.address) === text);
  return r?.attributeSources[field] ?? r?.source ?? change.source;
}
