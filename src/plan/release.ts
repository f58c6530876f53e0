/**
 * Deletes that become releases. Deletes of sandbox-only objects (accounts, funding instruments,
 * features) happen only on sandbox and local endpoints and only for objects adsctl created; any
 * other such delete becomes a release: the object stays, adsctl stops managing it. So does every
 * delete of a kind the API cannot delete (posts, media library items).
 */
import type { ResourceChange } from '../diff/types.js';
import { KINDS } from '../kinds/registry.js';
import { formatAddress } from '../manifest/address.js';
import type { AccountState } from '../state/state-file.js';

/** `changes` with the deletes the endpoint or the API cannot make turned into releases. */
export function releaseUndeletable(changes: readonly ResourceChange[], account: { state: AccountState; sandbox: boolean }): ResourceChange[] {
  return changes.map((c) => {
    if (c.action !== 'delete') return c;
    if (KINDS[c.kind].write.delete === undefined) return { ...c, action: 'noop', reason: 'released', changes: [] };
    if (!KINDS[c.kind].sandboxOnly) return c;
    const created = account.state.resources[formatAddress(c.address)]?.created === true;
    if (account.sandbox && created) return c;
    return { ...c, action: 'noop', reason: 'released', changes: [] };
  });
}
