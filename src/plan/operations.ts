/**
 * From resource changes to the writes that make them: a create sends every managed attribute, an
 * update only the writable attributes that changed, a delete only the id, a replace a delete and
 * a create. Parameters keep `UnknownRef`s; apply resolves them to ids once the referenced
 * resources exist. The order between operations is not decided here but by their edges
 * (order.ts).
 */
import type { ResourceChange } from '../diff/types.js';
import { formatAddress } from '../manifest/address.js';
import type { Operation } from './types.js';

/** Attributes that exist only in the manifest and are not API parameters. */
const NOT_SENT = new Set(['id']);

function createParams(change: ResourceChange): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(change.after ?? {})) if (!NOT_SENT.has(k) && v !== undefined) params[k] = v;
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
      for (const c of change.changes) if (!c.forcesReplacement) params[c.path] = c.after === undefined ? null : c.after;
      return [make('update', params, true)];
    }
    case 'delete':
      return [make('delete', {}, true)];
    case 'replace':
      return [make('delete', {}, true), make('create', createParams(change), false)];
    case 'noop':
      return [];
  }
}
