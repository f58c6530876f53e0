/**
 * Putting back what a serving object stopped carrying (docs/architecture.md, "Serving safety"):
 * under an object that serves and keeps serving, a swap of creatives removes the old ones before
 * it adds the new (serving.ts), so an addition the service refuses — a post deleted since the
 * plan, a media item it no longer takes — would leave the object serving with none. For every such
 * swap the plan says what apply sends then: the creates of the old creatives, with the values the
 * service showed for them, each sent only when its removal succeeded and none of the new
 * creatives of the swap was added. The object then carries what the old manifest gave it, which
 * widens nothing: a creative made outside adsctl (`added_outside`), which no manifest gave it, is
 * never put back. Pure.
 */
import type { ResourceChange } from '../diff/types.js';
import { kindOf, type KindLookup } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';
import { stepsOf } from './schedule.js';
import { creativeSwaps } from './serving.js';
import type { CreativeRestore, Operation } from './types.js';

/** The key of the create that puts back the creative at `address`. */
const restoreKey = (address: string): string => `restore ${address}`;

/**
 * What a create of the old creative sends: its values before the plan (those the service shows as
 * none left out), under the parent's live id.
 */
function restoreParams(before: Readonly<Record<string, unknown>>, parentField: string | undefined, parentId: string | undefined): Record<string, unknown> {
  const params = Object.fromEntries(Object.entries(before).filter(([, v]) => v !== null && v !== undefined));
  if (parentField !== undefined && parentId !== undefined) params[parentField] ??= parentId;
  return params;
}

/** What apply puts back for each creative swap of a serving object in `operations` (see the file comment). */
export function creativeRestores(operations: readonly Operation[], changes: ReadonlyMap<string, ResourceChange>, live: LiveAccount, kinds: KindLookup = kindOf): CreativeRestore[] {
  const out: CreativeRestore[] = [];
  for (const swap of creativeSwaps(operations, changes, live, kinds)) {
    const restores: Operation[] = [];
    const parentId = changes.get(swap.parent)?.id;
    for (const remove of swap.removes) {
      const change = changes.get(remove.address);
      if (change === undefined || change.reason === 'added_outside' || change.before === null) continue;
      const params = restoreParams(change.before, kinds(remove.kind).parentField, parentId);
      restores.push({ key: restoreKey(remove.address), address: remove.address, kind: remove.kind, action: 'create', params, after: [remove.key], phase: 'restore' });
    }
    if (restores.length === 0) continue;
    out.push({ parent: swap.parent, insteadOf: swap.adds.map((op) => op.key).sort(), operations: restores, steps: stepsOf(restores, kinds) });
  }
  return out.sort((a, b) => (a.parent < b.parent ? -1 : a.parent > b.parent ? 1 : 0));
}
