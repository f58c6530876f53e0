/** How output names a kind of object: its descriptor's noun, or the type with spaces for a type adsctl does not know. */
import { isResourceKind, KINDS } from '../kinds/registry.js';

/** `campaign`, `targeting criterion`, `line item`; an unknown `some_type` as `some type`. */
export function kindNoun(type: string): string {
  return isResourceKind(type) ? KINDS[type].noun : type.replace(/_/g, ' ');
}
