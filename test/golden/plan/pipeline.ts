/**
 * The plan pipeline of src/cli/pipeline.ts (`runPipeline`) without sessions or network: refresh
 * through a given API, diff, the same target filter and sandbox release, the lookups, and
 * `buildPlan`. The golden harness runs it over a live fixture; make-fixture.ts over an in-process
 * emulator before applying. Journal recovery is left out: neither has an interrupted apply.
 */
import type { AdsApi } from '../../../src/api/ads-api.js';
import { filterTargets, releaseSandboxOnly } from '../../../src/cli/pipeline.js';
import type { AccountSession } from '../../../src/cli/session.js';
import type { Diagnostic } from '../../../src/diag/diagnostic.js';
import { diffResources } from '../../../src/diff/diff.js';
import { fetchLiveState } from '../../../src/live/fetch.js';
import type { Lookups } from '../../../src/live/lookups.js';
import type { DesiredAccount } from '../../../src/manifest/types.js';
import { buildPlan, type AccountPlanInput } from '../../../src/plan/build.js';
import type { Plan } from '../../../src/plan/types.js';
import type { AccountState } from '../../../src/state/state-file.js';

/** One account to plan: its manifest, its state, and the API refresh reads through. */
export interface PipelineAccount {
  desired: DesiredAccount;
  state: AccountState;
  api: AdsApi;
  /** Read requests made through `api` so far. */
  reads: () => number;
  /**
   * The lookups for this account, asked for only when the plan changes something (as
   * `runPipeline` does); undefined skips validation against lookups.
   */
  lookups: (() => Lookups) | undefined;
  /**
   * Read requests the lookups cost. `fetchLookups` reads permissions fresh every time and takes
   * bidding rules and placements from its cache when fresh, so a warm cache costs one read.
   */
  lookupReads: number;
}

/** Endpoints on which sandbox-only objects may be deleted (see `releaseSandboxOnly`). */
const isSandbox = (endpoint: string): boolean => endpoint !== 'production';

/** Plans every account as `runPipeline` would in `plan` mode. */
export async function planAccounts(accounts: readonly PipelineAccount[]): Promise<Plan> {
  const diagnostics: Diagnostic[] = [];
  const inputs: AccountPlanInput[] = [];
  for (const a of accounts) {
    const { desired, state } = a;
    const endpoint = desired.endpoint ?? 'local';
    const live = await fetchLiveState({ api: a.api, account: desired.key, accountId: desired.accountId, desired, state });
    const diff = diffResources({ desired, live, state, mode: 'plan' });
    diagnostics.push(...diff.diagnostics);
    // releaseSandboxOnly reads only the session's state and whether its endpoint is a sandbox
    const session = { state, endpoint: { sandbox: isSandbox(endpoint) } } as unknown as AccountSession;
    const changes = releaseSandboxOnly(filterTargets(diff.value ?? [], []), session);
    const wanted = changes.some((c) => c.action !== 'noop') && desired.accountId !== undefined && a.lookups !== undefined;
    const lookups = wanted ? a.lookups?.() : undefined;
    inputs.push({
      account: desired.key,
      ...(desired.accountId === undefined ? {} : { accountId: desired.accountId }),
      endpoint,
      desired,
      changes,
      live,
      lookups,
      reads: a.reads() + (lookups === undefined ? 0 : a.lookupReads),
      stateSerial: state.serial,
    });
  }
  return buildPlan('plan', inputs, diagnostics);
}
