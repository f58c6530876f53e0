/**
 * From resource changes to the writes that make them: a create sends every managed attribute, an
 * update only the writable attributes that changed, a delete only the id, a replace a delete and
 * then a create. Parameters keep `UnknownRef`s; apply resolves them to ids once the referenced
 * resources exist.
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

/** The operations of one change, in the order they must run (a replace: delete, then create). */
export function operationsOf(change: ResourceChange): Operation[] {
  const address = formatAddress(change.address);
  const base = { address, kind: change.kind };
  switch (change.action) {
    case 'create':
      return [{ ...base, action: 'create', params: createParams(change) }];
    case 'update': {
      const params: Record<string, unknown> = {};
      for (const c of change.changes) if (!c.forcesReplacement) params[c.path] = c.after === undefined ? null : c.after;
      return [{ ...base, action: 'update', ...(change.id === undefined ? {} : { id: change.id }), params }];
    }
    case 'delete':
      return [{ ...base, action: 'delete', ...(change.id === undefined ? {} : { id: change.id }), params: {} }];
    case 'replace':
      return [
        { ...base, action: 'delete', ...(change.id === undefined ? {} : { id: change.id }), params: {} },
        { ...base, action: 'create', params: createParams(change) },
      ];
    case 'noop':
      return [];
  }
}
