/**
 * Which of the service's lookups a plan needs, from its changes alone: each kind declares which
 * lookup checks which of its fields (the descriptors' `lookups`), and a lookup is read only when a
 * change writes that field — a plan that creates no promoted post reads no posts.
 */
import type { ResourceChange } from '../diff/types.js';
import type { LookupNeed } from '../kinds/descriptor.js';
import { lookupField } from '../kinds/lookup-field.js';
import { targetingValuesToLookUp } from './targeting-values.js';

/** What a plan validates against, for one account. */
export interface LookupNeeds {
  iabCategories: boolean;
  curatedCategories: boolean;
  /** Ids of the posts the plan promotes (to check that they exist). */
  postIds: string[];
  /** Whether a post the plan writes names its author (to check it is a promotable user). */
  promotableUsers: boolean;
  /** Per targeting type, the values of the criteria the plan creates that no live criterion has (to check the service lists them). */
  targetingValues: Record<string, string[]>;
}

const creates = (c: ResourceChange): boolean => c.action === 'create' || c.action === 'replace';

/** The value `c` writes to the field `need` checks; undefined when its kind is not checked against it. */
function written(c: ResourceChange, need: LookupNeed): { value: unknown } | undefined {
  const field = lookupField(c.kind, need);
  return field === undefined ? undefined : { value: c.after?.[field] };
}

/** The lookups `changes` are to be checked against. */
export function lookupNeeds(changes: readonly ResourceChange[]): LookupNeeds {
  return {
    iabCategories: changes.some((c) => {
      const categories = c.action === 'delete' ? undefined : written(c, 'iab_categories')?.value;
      return Array.isArray(categories) && categories.length > 0;
    }),
    curatedCategories: changes.some((c) => c.action !== 'delete' && c.action !== 'noop' && written(c, 'curated_categories') !== undefined),
    promotableUsers: changes.some((c) => creates(c) && typeof written(c, 'promotable_users')?.value === 'string'),
    postIds: changes.filter(creates).flatMap((c) => {
      const id = written(c, 'posts')?.value;
      return typeof id === 'string' ? [id] : [];
    }),
    targetingValues: targetingValuesToLookUp(changes),
  };
}
