/**
 * The front half of plan, apply and destroy, once the manifests are loaded: open a session
 * (endpoint, client, locked state) per account, name the states no manifest owns any more, and
 * plan every account, the global lookups fetched once for the run. Problems come back as
 * diagnostics; on success the caller owns (and must close) the sessions.
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import { fetchLookups, SharedLookups } from '../live/lookups.js';
import type { DesiredAccount, ResourceAddress } from '../manifest/types.js';
import type { Plan } from '../plan/types.js';
import { LocalStore } from '../state/local-store.js';
import { cacheDirOf, stateDirOf } from '../state/location.js';
import { openAccounts, type AccountEnvironment, type Sessions } from './accounts.js';
import { orphanedStates } from './adopt-state.js';
import { guardPlan, type RunGuardrails } from './guardrails.js';
import { planAccounts } from './plan-accounts.js';
import type { RunOptions } from './run-options.js';

/** A manifest account, with the configuration root that keeps its state and its key there. */
interface LocatedAccount {
  desired: DesiredAccount;
  root: string;
  key: string;
}

interface PlanRequest {
  accounts: readonly LocatedAccount[];
  targets: readonly ResourceAddress[];
  mode: Plan['mode'];
  /** The directory the command was given: where an account without a root of its own keeps its lookup cache. */
  given: string;
  /** The guardrails of the accounts' roots and the rules lifted for the run (engine/guardrails.ts). */
  guardrails?: RunGuardrails;
}

type Prepared = { ok: true; plan: Plan; sessions: Sessions } | { ok: false; diagnostics: Diagnostic[] };

/** Opens the accounts of `request` with the run's options and plans them; an `operation` other than `plan` finishes interrupted applies first. */
export async function preparePlan(request: PlanRequest, env: AccountEnvironment, options: RunOptions, operation: string): Promise<Prepared> {
  const sessions = await openAccounts(
    request.accounts.map(({ desired, root, key }) => ({ key, root, ...(desired.endpoint === undefined ? {} : { endpoint: desired.endpoint }), ...(desired.accountId === undefined ? {} : { accountId: desired.accountId }), desired })),
    env,
    options,
    operation,
  );
  if (sessions.diagnostics.length > 0) return { ok: false, diagnostics: sessions.diagnostics };
  try {
    // states of the roots in use that no manifest owns any more (a moved or renamed file)
    const owned = new Set(sessions.sessions.flatMap((s) => [s.key, ...(s.formerKey === undefined ? [] : [s.formerKey])]));
    const orphans = (await Promise.all([...new Set(sessions.sessions.map((s) => s.store))].map((store) => orphanedStates(store, owned)))).flat();
    // the global lookups are fetched once for the run, however many accounts need them
    const shared = new SharedLookups();
    const plan = await planAccounts(sessions.sessions, {
      warnings: orphans,
      mode: request.mode,
      targets: request.targets,
      recover: operation !== 'plan',
      now: () => options.clock.now(),
      lookups: (s, needs) =>
        fetchLookups({
          api: s.api,
          endpoint: s.endpointName,
          cache: s.store ?? new LocalStore(stateDirOf(s.root ?? request.given), cacheDirOf(s.root ?? request.given)),
          // a new account has no permissions to read yet: its creator administers it
          accountIds: s.accountId === undefined ? [] : [s.accountId],
          needIabCategories: needs.iabCategories,
          needCuratedCategories: needs.curatedCategories,
          postIds: needs.postIds,
          needPromotableUsers: needs.promotableUsers,
          targetingValues: needs.targetingValues,
          shared,
          now: options.clock.now().getTime(),
        }),
    });
    if (request.guardrails !== undefined) guardPlan(plan, request.guardrails, options.clock.now());
    // the plan holds all an apply needs: the manifests' resources (a third of a large run's
    // memory) are let go before it starts
    for (const session of sessions.sessions) session.desired = undefined;
    return { ok: true, plan, sessions };
  } catch (error) {
    await sessions.close();
    throw error;
  }
}
