/**
 * The plan pipeline of DESIGN §1 for every open account: finish an interrupted apply (journal),
 * refresh, diff, fetch lookups, plan. Each stage is called with plain data; only refresh, lookups
 * and journal recovery touch the network.
 */
import { recoverJournal } from '../apply/recover.js';
import type { Diagnostic } from '../diag/diagnostic.js';
import { diffResources } from '../diff/diff.js';
import { isUnknownRef, type ResourceChange } from '../diff/types.js';
import { fetchLiveState } from '../live/fetch.js';
import { fetchLookups } from '../live/lookups.js';
import { formatAddress } from '../manifest/address.js';
import type { ResourceAddress } from '../manifest/types.js';
import { buildPlan, type AccountPlanInput } from '../plan/build.js';
import type { Plan } from '../plan/types.js';
import { cacheDirOf, stateDirOf, type AccountSession } from './session.js';

export interface PipelineOptions {
  mode: Plan['mode'];
  workDir: string;
  /** `--target` addresses: only these resources and what they contain. */
  targets: readonly ResourceAddress[];
}

const isWithin = (address: ResourceAddress, target: ResourceAddress): boolean =>
  target.steps.length <= address.steps.length && target.steps.every((s, i) => address.steps[i]?.collection === s.collection && address.steps[i]?.key === s.key);

/**
 * Keeps the changes under the targets, plus what they need that is yet to be made: the creates of
 * their ancestors and of every resource their values refer to (a campaign's new funding
 * instrument), transitively.
 */
export function filterTargets(changes: readonly ResourceChange[], targets: readonly ResourceAddress[]): ResourceChange[] {
  if (targets.length === 0) return [...changes];
  const byAddress = new Map(changes.map((c) => [formatAddress(c.address), c]));
  const kept = new Set(changes.filter((c) => targets.some((t) => isWithin(c.address, t))));
  const queue = [...kept];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    const needed = changes.filter((c) => (c.action === 'create' || c.action === 'replace') && isWithin(next.address, c.address));
    for (const value of Object.values(next.after ?? {})) {
      const ref = isUnknownRef(value) ? byAddress.get(value.$ref) : undefined;
      if (ref !== undefined) needed.push(ref);
    }
    for (const c of needed) {
      if (kept.has(c)) continue;
      kept.add(c);
      queue.push(c);
    }
  }
  return changes.filter((c) => kept.has(c));
}

const SANDBOX_ONLY = new Set(['account', 'funding_instrument', 'account_feature']);

/**
 * Deletes of sandbox-only objects (accounts, funding instruments, features) happen only on
 * sandbox and local endpoints and only for objects adsctl created; any other such delete becomes a
 * release: the object stays, adsctl stops managing it.
 */
export function releaseSandboxOnly(changes: readonly ResourceChange[], session: AccountSession): ResourceChange[] {
  return changes.map((c) => {
    if (c.action !== 'delete' || !SANDBOX_ONLY.has(c.kind)) return c;
    const created = session.state.resources[formatAddress(c.address)]?.created === true;
    if (session.endpoint.sandbox && created) return c;
    return { ...c, action: 'noop', reason: 'released', changes: [] };
  });
}

/** Runs refresh → diff → plan for every session; the plan carries every diagnostic found. */
export async function runPipeline(sessions: readonly AccountSession[], options: PipelineOptions): Promise<Plan> {
  const stateDir = stateDirOf(options.workDir);
  const diagnostics: Diagnostic[] = [];
  const inputs = await Promise.all(
    sessions.map(async (s): Promise<AccountPlanInput> => {
      await recoverJournal(s.api, s.accountId, s.state, stateDir);
      if (s.accountId === undefined && s.state.account_id !== undefined) s.accountId = s.state.account_id;
      const live = await fetchLiveState({ api: s.api, account: s.key, accountId: s.accountId, desired: s.desired, state: s.state });
      if (live.accountId === undefined && s.accountId !== undefined && s.desired?.accountId === undefined) {
        // the account adsctl created is gone: a new one will be created
        s.accountId = undefined;
        delete s.state.account_id;
      }
      const diff = diffResources({ desired: s.desired ?? { file: '', key: s.key, resources: [] }, live, state: s.state, mode: options.mode });
      diagnostics.push(...diff.diagnostics);
      const changes = releaseSandboxOnly(filterTargets(diff.value ?? [], options.targets), s);
      const lookups =
        options.mode === 'plan' && changes.some((c) => c.action !== 'noop')
          ? await fetchLookups({
              api: s.api,
              endpoint: s.endpointName,
              cacheDir: cacheDirOf(options.workDir),
              // a new account has no permissions to read yet: its creator administers it
              accountIds: s.accountId === undefined ? [] : [s.accountId],
              needIabCategories: changes.some((c) => c.kind === 'line_item' && c.action !== 'delete' && Array.isArray(c.after?.['categories']) && (c.after['categories'] as unknown[]).length > 0),
              needCuratedCategories: changes.some((c) => c.kind === 'line_item_curated_category' && c.action !== 'delete' && c.action !== 'noop'),
            })
          : undefined;
      return {
        account: s.key,
        ...(s.accountId === undefined ? {} : { accountId: s.accountId }),
        endpoint: s.endpointName,
        desired: s.desired,
        changes,
        live,
        lookups,
        reads: s.client.counts.reads,
        stateSerial: s.state.serial,
      };
    }),
  );
  return buildPlan(options.mode, inputs, diagnostics);
}
