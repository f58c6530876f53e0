/**
 * The front half of plan, apply and destroy: load and check the manifests, parse `--target`
 * addresses, open a session (endpoint, client, locked state) per account, and run the pipeline.
 * Problems come back as diagnostics with the source texts needed to print them.
 */
import { ApiError } from '../api/errors.js';
import { hasErrors, type Diagnostic } from '../diag/diagnostic.js';
import { formatDiagnostics } from '../diag/format.js';
import { parseAddress } from '../manifest/address.js';
import { loadManifests } from '../manifest/load.js';
import type { ResourceAddress } from '../manifest/types.js';
import type { Plan } from '../plan/types.js';
import type { Io } from './io.js';
import { runPipeline } from './pipeline.js';
import type { RunFlags } from './run-options.js';
import { LocalStore } from '../state/local-store.js';
import { LockLostError, lockLostMessage } from '../state/lock-lost.js';
import { accountLocation, cacheDirOf, givenDirectory, stateDirOf } from './root.js';
import { orphanedStates } from './adopt-state.js';
import { openSessions, type Sessions } from './session.js';
import { fetchLookups, SharedLookups } from '../live/lookups.js';

interface Prepared {
  plan: Plan;
  sessions: Sessions;
  sources: Map<string, string>;
}

type PrepareResult = { ok: true; value: Prepared } | { ok: false; diagnostics: Diagnostic[]; sources: Map<string, string> };

/** Loads, opens and plans; on success the caller owns (and must close) the sessions. */
async function preparePlan(io: Io, path: string, flags: RunFlags, mode: Plan['mode'], operation: string): Promise<PrepareResult> {
  const loaded = loadManifests(path, { env: io.env });
  if (loaded.value === undefined || hasErrors(loaded.diagnostics)) return { ok: false, diagnostics: loaded.diagnostics, sources: loaded.sources };
  const targets: ResourceAddress[] = [];
  const diagnostics: Diagnostic[] = [...loaded.diagnostics];
  for (const text of flags.target ?? []) {
    const parsed = parseAddress(text);
    if (parsed.value === undefined) diagnostics.push(...parsed.diagnostics);
    else targets.push(parsed.value);
  }
  if (hasErrors(diagnostics)) return { ok: false, diagnostics, sources: loaded.sources };
  const given = givenDirectory(path);
  // state lives with each manifest's configuration root; an account without an id is known by
  // its file, relative to that root, whatever the current directory
  const accounts = loaded.value.accounts.map((a) => ({ ...a, ...accountLocation(a, given) }));
  const sessions = await openSessions(
    accounts.map((a) => ({ key: a.key, root: a.root, ...(a.endpoint === undefined ? {} : { endpoint: a.endpoint }), ...(a.accountId === undefined ? {} : { accountId: a.accountId }), desired: a })),
    { io, parallelism: flags.parallelism, lockTimeoutMs: flags.lockTimeout, operation, debug: flags.debug === true },
  );
  if (sessions.diagnostics.length > 0) return { ok: false, diagnostics: sessions.diagnostics, sources: loaded.sources };
  // states of the roots in use that no manifest owns any more (a moved or renamed file)
  const owned = new Set(sessions.sessions.flatMap((s) => [s.key, ...(s.formerKey === undefined ? [] : [s.formerKey])]));
  const orphans = (await Promise.all([...new Set(sessions.sessions.map((s) => s.store))].map((store) => orphanedStates(store, owned)))).flat();
  // the global lookups are fetched once for the run, however many accounts need them
  const shared = new SharedLookups();
  try {
    const plan = await runPipeline(sessions.sessions, {
      warnings: orphans,
      mode,
      targets,
      recover: operation !== 'plan',
      lookups: (s, needs) =>
        fetchLookups({
          api: s.api,
          endpoint: s.endpointName,
          cache: s.store ?? new LocalStore(stateDirOf(s.root ?? given), cacheDirOf(s.root ?? given)),
          // a new account has no permissions to read yet: its creator administers it
          accountIds: s.accountId === undefined ? [] : [s.accountId],
          needIabCategories: needs.iabCategories,
          needCuratedCategories: needs.curatedCategories,
          postIds: needs.postIds,
          needPromotableUsers: needs.promotableUsers,
          targetingValues: needs.targetingValues,
          shared,
        }),
    });
    // the plan holds all an apply needs: the manifests' resources (a third of a large run's
    // memory) are let go before it starts
    for (const session of sessions.sessions) session.desired = undefined;
    return { ok: true, value: { plan, sessions, sources: loaded.sources } };
  } catch (error) {
    await sessions.close();
    throw error;
  }
}

/**
 * `preparePlan` for a command: problems (diagnostics, an API error while refreshing, or a state
 * lock lost meanwhile) are printed and the exit code set to 1; returns undefined then.
 */
export async function prepareOrReport(io: Io, path: string, flags: RunFlags, mode: Plan['mode'], operation: string, setExit: (code: number) => void): Promise<Prepared | undefined> {
  let prepared: PrepareResult;
  try {
    prepared = await preparePlan(io, path, flags, mode, operation);
  } catch (error) {
    if (error instanceof LockLostError) {
      io.err(`Error: ${lockLostMessage(error.message, operation)}\n`);
      setExit(1);
      return undefined;
    }
    if (!(error instanceof ApiError)) throw error;
    io.err(`Error: ${error.describe()}\n`);
    setExit(1);
    return undefined;
  }
  if (!prepared.ok) {
    io.err(formatDiagnostics(prepared.diagnostics, prepared.sources));
    setExit(1);
    return undefined;
  }
  return prepared.value;
}

/** True when the plan would change anything (a create, update, replace or delete). */
export function hasChanges(plan: Plan): boolean {
  return plan.accounts.some((a) => a.changes.some((c) => c.action !== 'noop'));
}

