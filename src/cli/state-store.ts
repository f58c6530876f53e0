/**
 * The state backend of a configuration root: local files under its `.adsctl/` unless the root's
 * `adsctl.yaml` names PostgreSQL (src/state/config.ts), whose connection string is read from the
 * environment variable the file names.
 */
import type { Clock } from '../clock/clock.js';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import { readStateConfig, type StateConfig } from '../state/config.js';
import { LocalStore } from '../state/local-store.js';
import { releaseOwnLocks } from '../state/lock.js';
import type { StateStore } from '../state/store.js';
import { guardLock, releaseOnExit } from './early-exit.js';
import { cacheDirOf, stateDirOf } from './root.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `store`, whose locks an interrupt or another early exit releases too (early-exit.ts). */
function guarded(store: StateStore): StateStore {
  releaseOnExit(releaseOwnLocks);
  const lock = store.lock.bind(store);
  store.lock = async (key, operation, timeoutMs, holding) => {
    const taken = await lock(key, operation, timeoutMs, holding);
    return 'heldBy' in taken ? taken : guardLock(taken);
  };
  return store;
}

/** Opens the backend `config` describes for `root`, dating what it writes by `clock`; the locks it grants are guarded (`guarded`). */
async function openConfigured(root: string, config: StateConfig, env: Env, clock: Clock): Promise<StateStore | Diagnostic> {
  if (config.backend === 'local') return guarded(new LocalStore(stateDirOf(root), cacheDirOf(root), clock));
  const connectionString = env[config.connectionStringEnv];
  if (connectionString === undefined || connectionString === '') {
    return errorAt('state-backend', `the state of ${root} is kept in PostgreSQL (adsctl.yaml), and ${config.connectionStringEnv} is not set: set it to the connection string (postgres://user:password@host:5432/db)`, config.range);
  }
  try {
    // the driver is loaded only by a root that keeps its state in PostgreSQL
    const { PostgresStore } = await import('../state/postgres/store.js');
    return guarded(await PostgresStore.open({ connectionString, schema: config.schema, clock }));
  } catch (error) {
    return errorAt('state-backend', error instanceof Error ? error.message : String(error), config.range);
  }
}

/** The backend the root's configuration names, dating what it writes by the run's `clock`. */
export async function openStore(root: string, env: Env, clock: Clock): Promise<StateStore | Diagnostic> {
  const { config, diagnostics } = readStateConfig(root);
  if (config === undefined) return diagnostics[0]!;
  return openConfigured(root, config, env, clock);
}

/**
 * A named backend of the root, for `state migrate --from`: local files, or PostgreSQL with the
 * connection variable and schema adsctl.yaml gives (their defaults otherwise), whichever backend
 * it names now.
 */
export async function openNamedStore(root: string, backend: 'local' | 'postgres', env: Env, clock: Clock): Promise<StateStore | Diagnostic> {
  const { config, diagnostics } = readStateConfig(root);
  if (config === undefined) return diagnostics[0]!;
  return openConfigured(root, { ...config, backend }, env, clock);
}
