/**
 * The write endpoints most kinds share: one request per resource to the resource's own create,
 * update and delete paths (src/api/resources.ts), and its batch endpoint.
 */
import type { ResourceName } from '../api/resources.js';
import type { WriteEndpoint } from './descriptor.js';

/** `POST accounts/:account_id/<collection>`, answering the new id. */
export function createOne(resource: ResourceName): WriteEndpoint {
  return { via: 'single', send: async (api, accountId, item) => String((await api.create(resource, accountId, item.params as never)).id) };
}

/** `PUT accounts/:account_id/<collection>/:id` with the changed fields. */
export function updateOne(resource: ResourceName): WriteEndpoint {
  return { via: 'single', send: async (api, accountId, item) => String((await api.update(resource, accountId, item.id ?? '', item.params as never)).id) };
}

/** `DELETE accounts/:account_id/<collection>/:id`. */
export function deleteOne(resource: ResourceName): WriteEndpoint {
  return { via: 'single', send: async (api, accountId, item) => String((await api.delete(resource, accountId, item.id ?? '')).id) };
}

/** The batch endpoint `POST batch/accounts/:account_id/<collection>`, `limit` items a request. */
export function batch(resource: ResourceName, limit: number, idParam: string): WriteEndpoint {
  return { via: 'batch', resource, limit, idParam };
}
