/**
 * Kinds the API cannot delete (posts, media library items): their replacement leaves the old
 * object on the service, so the plan says so and does not count it as destroyed.
 */
import { isResourceKind, KINDS } from '../kinds/registry.js';

/** The kind's noun when the API cannot delete objects of kind `type`; undefined otherwise. */
export function undeletableNoun(type: string): string | undefined {
  if (!isResourceKind(type)) return undefined;
  const d = KINDS[type];
  return d.write.delete === undefined ? d.noun : undefined;
}
