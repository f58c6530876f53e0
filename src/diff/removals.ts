/**
 * The change of a resource the state manages and the plan takes down: one no longer in the
 * manifest (`removed`), or, under `destroy`, every one. It is a `delete`, or a `noop` that makes
 * apply forget it when its object is gone (`deleted_outside`) or when another desired resource
 * now holds that object (`released`: the resource was renamed by an import of the same id, and
 * the object must outlive its old address). Deleting a protected resource is an error, and the
 * change is still returned so the plan can show it.
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import { parseAddress } from '../manifest/address.js';
import type { DesiredResource, ResourceAddress } from '../manifest/types.js';
import type { StateResource } from '../state/state-file.js';
import { liveRecordOf } from './binding.js';
import { DEFAULT_CURRENCY, recordCurrency } from './currency.js';
import { holderKey, type DiffContext } from './diff-context.js';
import { appliedValues } from './applied.js';
import { isProtected, preventDestroyError } from './protection.js';
import { isResourceKind, KINDS } from '../kinds/registry.js';
import type { AttributeChange, ResourceChange } from './types.js';

function warning(code: string, message: string): Diagnostic {
  return { severity: 'warning', code, message };
}


function deletedAttributes(before: Record<string, unknown>): AttributeChange[] {
  const changes: AttributeChange[] = [];
  for (const path in before) changes.push({ path, before: before[path], after: undefined, origin: 'manifest', forcesReplacement: false });
  return changes;
}

function addressOf(ctx: DiffContext, text: string, desired: DesiredResource | undefined): ResourceAddress | undefined {
  if (desired !== undefined) return desired.address;
  const parsed = parseAddress(text);
  if (parsed.value === undefined) ctx.diagnostics.push(warning('state-address', `the state holds ${JSON.stringify(text)}, which is not a valid address; it is left alone (adsctl state rm removes it)`));
  return parsed.value;
}

/**
 * The change that takes down the state resource at `text` (`desired` is its manifest entry under
 * `destroy`), or undefined when the state entry is unusable (a warning says so).
 */
export function removalChange(ctx: DiffContext, text: string, entry: StateResource, desired: DesiredResource | undefined): ResourceChange | undefined {
  const { input } = ctx;
  const kind = entry.kind;
  if (!isResourceKind(kind)) {
    ctx.diagnostics.push(warning('state-kind', `the state holds ${text} of unknown kind ${JSON.stringify(kind)}; it is left alone (adsctl state rm removes it)`));
    return undefined;
  }
  const address = addressOf(ctx, text, desired);
  if (address === undefined) return undefined;
  const record = liveRecordOf(input.live, kind, entry.id);
  const protectedFlag = isProtected(desired, entry);
  const change: ResourceChange = {
    account: input.desired.key,
    address,
    kind,
    action: 'noop',
    id: entry.id,
    before: null,
    after: null,
    changes: [],
    drift: false,
    protected: protectedFlag,
    ...(desired === undefined ? {} : { source: desired.source }),
  };
  if (KINDS[kind].currency !== undefined) change.currency = recordCurrency(record, input.live) ?? DEFAULT_CURRENCY;
  if (record === undefined) {
    change.reason = 'deleted_outside';
    change.drift = true;
    return change;
  }
  if (input.mode === 'plan' && ctx.imports.has(holderKey(kind, entry.id))) {
    change.reason = 'released';
    return change;
  }
  if (input.mode === 'plan') change.reason = 'removed';
  change.action = 'delete';
  change.before = appliedValues(kind, record, entry.applied);
  change.changes = deletedAttributes(change.before);
  if (protectedFlag) ctx.diagnostics.push(preventDestroyError(text, 'delete', desired));
  return change;
}
