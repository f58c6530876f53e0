/**
 * The golden plans run `planAccounts` (src/engine/plan-accounts.ts), the function `adsctl plan` runs, over
 * a given API: a live fixture (harness.ts) or an in-process emulator (make-fixture.ts). This
 * file only makes the pipeline's account out of a manifest account and its state.
 */
import type { AdsApi } from '../../../src/api/ads-api.js';
import type { PlanAccount } from '../../../src/engine/plan-accounts.js';
import type { DesiredAccount } from '../../../src/manifest/types.js';
import { LocalStore } from '../../../src/state/local-store.js';
import type { AccountState } from '../../../src/state/state-file.js';

/**
 * A manifest account as `planAccounts` takes it, reading through `api` (`reads` counts its
 * requests). `stateDir`, when given, is the account's state directory: the plan reads the members
 * last uploaded from its `<account>.members/` folder (and reports a journal left there).
 */
export function pipelineAccount(desired: DesiredAccount, state: AccountState, api: AdsApi, reads: () => number, stateDir?: string): PlanAccount {
  const endpointName = desired.endpoint ?? 'local';
  return {
    key: desired.key,
    desired,
    state,
    api,
    accountId: desired.accountId,
    endpointName,
    sandbox: endpointName !== 'production',
    reads,
    ...(stateDir === undefined ? {} : { stateDir, store: new LocalStore(stateDir, stateDir) }),
  };
}
