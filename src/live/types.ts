/**
 * Live state: what the service holds for the resources a run cares about, as read by
 * `fetchLiveState`. Records are the wire records (API field names); `fingerprint` changes
 * whenever the service changes the record, so a saved plan can tell whether it went stale.
 */
import type { ResourceKind } from '../manifest/types.js';

export interface LiveResource {
  kind: ResourceKind;
  id: string;
  /** The wire record as the API returned it. */
  record: Record<string, unknown>;
  /** `updated_at` and a hash of the record (fingerprint.ts); only the records a plan changes ever need it. */
  readonly fingerprint: string;
}

/** What was read for one account. */
export interface LiveAccount {
  /** The account key of the manifest and state. */
  account: string;
  /** The live account id, when the account exists. */
  accountId: string | undefined;
  /** Currency of each funding instrument id (money is shown in it). */
  currencies: Record<string, string>;
  /** Records found, by kind and id. Deleted records are never here. */
  resources: Map<ResourceKind, Map<string, LiveResource>>;
  /** Ids the state binds that the service no longer has (deleted outside adsctl). */
  missing: Set<string>;
}
