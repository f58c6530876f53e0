/**
 * Identity: which live object a desired resource stands for. A resource is bound by its state
 * entry (the address it was applied or moved to), or by an import — an `import` entry, the `id`
 * of the account or of a funding instrument, which win over the state when they name another
 * object — or, for an account feature, by its key being granted already, or, under a parent an
 * import binds, by being the live child with its identity (adopt.ts; the binding then counts as
 * an import). Nothing else binds: a live object the state does not know is adopted only
 * explicitly (docs/architecture.md).
 */
import type { LiveAccount } from '../live/types.js';
import type { DesiredResource, ResourceKind } from '../manifest/types.js';
import type { AccountState, StateResource } from '../state/state-file.js';
import { KINDS } from '../kinds/registry.js';

/** How a desired resource is bound: `state` (its state entry), `import`, or not at all. */
type BindingSource = 'state' | 'import' | 'none';

/** A desired resource's binding and, when the bound object exists, its live record. */
export interface Binding {
  source: BindingSource;
  /** The bound live id (undefined when unbound). */
  id: string | undefined;
  /** The state entry at the resource's address (its applied values and protection), if any. */
  stateEntry: StateResource | undefined;
  /** The live record of the bound object; undefined when the object is gone or unbound. */
  record: Readonly<Record<string, unknown>> | undefined;
}

const NO_RECORD: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The live record of `kind` with `id`, or undefined when the service does not have it. The live
 * records are authoritative: `missing` lists exactly the bound ids that were read and not found.
 * The account counts as present when it is the live account even if its record was not read;
 * its fields then fall back to the applied values.
 */
export function liveRecordOf(live: LiveAccount, kind: ResourceKind, id: string): Readonly<Record<string, unknown>> | undefined {
  const found = live.resources.get(kind)?.get(id);
  if (found !== undefined) return found.record;
  if (KINDS[kind].read.via === 'account' && live.accountId === id) return NO_RECORD;
  return undefined;
}

function importIdOf(resource: DesiredResource, accountId: string | undefined): string | undefined {
  if (resource.importId !== undefined) return resource.importId;
  return KINDS[resource.kind].read.via === 'account' ? accountId : undefined;
}

function featureKey(resource: DesiredResource): string {
  const key = resource.attributes['feature_key'];
  return typeof key === 'string' ? key : (resource.address.steps[resource.address.steps.length - 1]?.key ?? '');
}

/** Binds the desired resource whose address text is `text`. */
export function bindResource(resource: DesiredResource, text: string, state: AccountState, live: LiveAccount, accountId: string | undefined): Binding {
  const stateEntry = state.resources[text];
  const importId = importIdOf(resource, accountId);
  let source: BindingSource = 'none';
  let id: string | undefined;
  if (importId !== undefined && stateEntry?.id !== importId) {
    source = 'import';
    id = importId;
  } else if (stateEntry !== undefined) {
    source = 'state';
    id = stateEntry.id;
  } else if (KINDS[resource.kind].address.key === 'feature') {
    const key = featureKey(resource);
    if (liveRecordOf(live, resource.kind, key) !== undefined) {
      source = 'import';
      id = key;
    }
  }
  return { source, id, stateEntry, record: id === undefined ? undefined : liveRecordOf(live, resource.kind, id) };
}
