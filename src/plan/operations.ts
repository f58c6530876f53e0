/**
 * From resource changes to the writes that make them: a create sends every managed attribute, an
 * update only the writable attributes that changed, a delete only the id, a replace a delete and
 * a create (only the create when the API cannot delete the kind). Parameters keep `UnknownRef`s; apply resolves them to ids once the referenced
 * resources exist. The order between operations is not decided here but by their edges
 * (order.ts).
 */
import type { ResourceChange } from '../diff/types.js';
import { KINDS } from '../kinds/registry.js';
import { formatAddress } from '../manifest/address.js';
import type { Operation } from './types.js';

/** Attributes that exist only in the manifest and are not API parameters. */
const NOT_SENT = new Set(['id']);

/**
 * The parameters of a create: its `after` without what is not sent. When nothing is left out they
 * are `after` itself, not a copy: a large plan keeps each create's attributes once (neither is
 * changed after planning; apply sends a resolved copy, apply/resolve.ts).
 */
function createParams(change: ResourceChange): Record<string, unknown> {
  const after = change.after ?? {};
  const entries = Object.entries(after);
  if (entries.every(([k, v]) => !NOT_SENT.has(k) && v !== undefined)) return after;
  const params: Record<string, unknown> = {};
  for (const [k, v] of entries) if (!NOT_SENT.has(k) && v !== undefined) params[k] = v;
  return params;
}

/** The key of the operation of `action` on the resource at `address`. */
export function operationKey(action: Operation['action'], address: string): string {
  return `${action} ${address}`;
}

/** The operations of one change (a replace: its delete and its create). */
export function operationsOf(change: ResourceChange): Operation[] {
  const address = formatAddress(change.address);
  const make = (action: Operation['action'], params: Record<string, unknown>, withId: boolean): Operation => ({
    key: operationKey(action, address),
    address,
    kind: change.kind,
    action,
    ...(withId && change.id !== undefined ? { id: change.id } : {}),
    params,
    after: [],
  });
  switch (change.action) {
    case 'create':
      return [make('create', createParams(change), false)];
    case 'update': {
      const params: Record<string, unknown> = {};
      // what the kind's own write code needs beyond the changed fields: the file a membership or a
      // media item is read from, and the write-only values the service keeps but never shows
      for (const rule of KINDS[change.kind].attributes) {
        const value = change.after?.[rule.field];
        if ((rule.informational === true || rule.writeOnly === true) && value !== undefined) params[rule.field] = value;
      }
      for (const c of change.changes) if (!c.forcesReplacement) params[c.path] = c.after === undefined ? null : c.after;
      return [make('update', params, true)];
    }
    case 'delete':
      return [make('delete', {}, true)];
    case 'replace':
      // an object the API cannot delete stays on the service; the address moves to the new one
      if (KINDS[change.kind].write.delete === undefined) return [make('create', createParams(change), false)];
      return [make('delete', {}, true), make('create', createParams(change), false)];
    case 'noop':
      return [];
  }
}
