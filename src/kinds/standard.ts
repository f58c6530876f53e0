/**
 * The endpoints most kinds share, from the API client's table of resources (src/api/resources.ts):
 * one request per resource to the resource's own create, update and delete paths, its batch
 * endpoint, and its list endpoint.
 */
import { RESOURCES, type ResourceName } from '../api/resources.js';
import type { ReadSpec, WriteEndpoint } from './descriptor.js';

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

/** The batch endpoint `POST batch/accounts/:account_id/<collection>`, at the limit and id parameter the API has for it. */
export function batch(resource: ResourceName): WriteEndpoint {
  const { batchLimit, batchIdParam } = RESOURCES[resource];
  if (batchLimit === undefined || batchIdParam === undefined) throw new Error(`${resource} has no batch endpoint`);
  return { via: 'batch', resource, limit: batchLimit, idParam: batchIdParam };
}

/** Reading through the list endpoint of `resource`, with its id filter and page size. */
export function listed(resource: ResourceName, scope: 'ids' | 'whole' | 'parent', extra: Omit<Extract<ReadSpec, { via: 'list' }>, 'via' | 'resource' | 'idsParam' | 'pageSize' | 'scope'> = {}): ReadSpec {
  const { idsParam, countMax } = RESOURCES[resource];
  return { via: 'list', resource, idsParam, pageSize: countMax, scope, ...extra };
}
