/**
 * Everything a plan, apply or destroy of one manifest account works with: the endpoint and an
 * API client for it, the account's state held under its lock, and the live account id. Local
 * endpoints share one embedded emulator per state directory.
 */
import { join, relative } from 'node:path';
import { AdsApi } from '../api/ads-api.js';
import { ApiClient } from '../api/client.js';
import { RateTracker } from '../api/rate-tracker.js';
import { waitNotices } from './wait-notices.js';
import { Semaphore } from '../api/semaphore.js';
import type { Endpoint } from '../api/endpoints.js';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import { redactUserinfo } from '../diag/redact.js';
import type { DesiredAccount } from '../manifest/types.js';
import type { PipelineAccount } from './pipeline.js';
import { stateByAccount } from './adopt-state.js';
import { stateDirOf } from './root.js';
import { loadState } from '../state/apply-journal.js';
import { describeJournalDamage } from '../state/journal.js';
import type { Lock, StateStore } from '../state/store.js';
import { lockedMessage, tookOverWarning } from './lock-notices.js';
import { exitOnInterrupt } from './interrupt.js';
import { openStore } from './state-store.js';
import { userCredentialsFrom } from './credentials.js';
import { openEndpoint, type OpenEndpoint } from './endpoint.js';
import type { Io } from './io.js';

/** Which account to open: from a manifest, or from a saved plan. */
interface SessionTarget {
  key: string;
  /** The configuration root whose `.adsctl/` holds the account's state (root.ts). */
  root: string;
  endpoint?: string;
  accountId?: string;
  desired?: DesiredAccount;
}

export interface AccountSession extends PipelineAccount {
  /** Absent for a saved plan, which carries its own operations. */
  desired: DesiredAccount | undefined;
  /** The endpoint name in force (ADSCTL_ENDPOINT, else the manifest's, else local). */
  endpointName: string;
  endpoint: Endpoint;
  client: ApiClient;
  lock: Lock;
  /** Where the account's state is kept (its configuration root's backend). */
  store: StateStore;
  /** The configuration root, and its state directory (what is kept beside the state: member stores). */
  root: string;
  stateDir: string;
  /** The key the account's state was kept under before its manifest named the account's id. */
  formerKey?: string;
  /** The live account id: from the manifest, else from state; undefined until adsctl creates it. */
  accountId: string | undefined;
}

interface SessionOptions {
  io: Io;
  parallelism: number;
  lockTimeoutMs: number;
  operation: string;
  debug: boolean;
}

export interface Sessions {
  sessions: AccountSession[];
  diagnostics: Diagnostic[];
  /** Releases every lock and closes clients and embedded emulators. */
  close(): Promise<void>;
}

/** The force-unlock command a user types for a lock of the state under `root`, from the current directory. */
function unlockCommand(id: string, root: string): string {
  const path = relative(process.cwd(), root);
  return `adsctl force-unlock ${id}${path === '' ? '' : ` ${path.includes(' ') ? JSON.stringify(path) : path}`}`;
}

/**
 * The count of reads a client made. Made outside the loop of `openSessions`: a closure made
 * inside it would keep the loop's target alive, and with it the account's manifest resources,
 * which the run lets go once planned.
 */
function readsOf(client: ApiClient): () => number {
  return () => client.counts.reads;
}

/** Opens a session per account; on any problem, returns diagnostics and holds nothing. */
export async function openSessions(accounts: readonly SessionTarget[], options: SessionOptions): Promise<Sessions> {
  // from here on a run holds locks: a signal releases them before it ends the process
  exitOnInterrupt((text) => options.io.err(text));
  const endpoints = new Map<string, OpenEndpoint>();
  const stores = new Map<string, StateStore>();
  // one budget of requests in flight for every account of the run (--parallelism)
  const shared = new Semaphore(options.parallelism);
  // and one account of the rate-limit budgets its clients draw from together
  const rates = new RateTracker();
  // a long wait for a rate limit is told once per budget and window, whichever account waits
  const told = waitNotices(options.io);
  const sessions: AccountSession[] = [];
  const diagnostics: Diagnostic[] = [];
  const closeAll = async (): Promise<void> => {
    for (const s of sessions) {
      await s.lock.release();
      await s.client.close();
    }
    for (const e of endpoints.values()) await e.close();
    for (const store of stores.values()) await store.close();
  };
  const fromEnv = options.io.env['ADSCTL_ENDPOINT'];
  for (const target of accounts) {
    const name = fromEnv !== undefined && fromEnv !== '' ? fromEnv : (target.endpoint ?? 'local');
    const where = target.desired?.resources[0]?.source;
    const shown = redactUserinfo(name);
    // the embedded emulator keeps its data with the state, one per root
    const endpointKey = `${name}\u0000${target.root}`;
    let open = endpoints.get(endpointKey);
    if (open === undefined) {
      const opened = await openEndpoint(name, join(target.root, '.adsctl'), options.lockTimeoutMs);
      if (typeof opened === 'string') {
        // a bad ADSCTL_ENDPOINT is the environment's, not the manifest's: no position
        diagnostics.push(fromEnv !== undefined && fromEnv !== '' ? errorAt('endpoint', `ADSCTL_ENDPOINT: ${opened}`) : errorAt('endpoint', opened, where));
        continue;
      }
      open = opened;
      endpoints.set(endpointKey, open);
    }
    const credentials = open.builtInCredentials ?? userCredentialsFrom(options.io.env, name);
    if (credentials === undefined) {
      diagnostics.push(errorAt('credentials', `no credentials for endpoint ${shown}: set ADSCTL_CONSUMER_KEY, ADSCTL_CONSUMER_SECRET, ADSCTL_ACCESS_TOKEN and ADSCTL_ACCESS_TOKEN_SECRET, or run adsctl auth login`));
      continue;
    }
    const stateDir = stateDirOf(target.root);
    let store = stores.get(target.root);
    if (store === undefined) {
      const opened = await openStore(target.root, options.io.env);
      if (!('read' in opened)) {
        diagnostics.push(opened);
        continue;
      }
      store = opened;
      stores.set(target.root, store);
    }
    const lock = await store.lock(target.key, options.operation, options.lockTimeoutMs);
    if ('heldBy' in lock) {
      diagnostics.push(errorAt('state-locked', lockedMessage(target.key, lock.heldBy, (id) => unlockCommand(id, target.root))));
      continue;
    }
    if (lock.tookOver !== undefined) options.io.err(tookOverWarning(target.key, lock.tookOver, lock.tookOverBecause));
    const adopted = await stateByAccount(store, target.key, target.accountId, shown, options.operation !== 'plan');
    const loaded = typeof adopted === 'object' ? { state: adopted.state, journal: await store.readJournal(adopted.state.account) } : (adopted ?? (await loadState(store, target.key, shown)));
    if (typeof loaded === 'string') {
      await lock.release();
      diagnostics.push(errorAt('state', loaded));
      continue;
    }
    const { state } = loaded;
    if (loaded.journal.damage !== undefined) {
      await lock.release();
      diagnostics.push(errorAt('journal', describeJournalDamage(loaded.journal.damage)));
      continue;
    }
    const client = new ApiClient({
      endpoint: open.endpoint,
      credentials,
      parallelism: options.parallelism,
      shared,
      rates,
      onWait: told,
      ...(lock.lost === undefined ? {} : { writesStop: lock.lost }),
      ...(options.debug ? { trace: (line: string) => options.io.err(`[debug] ${line}\n`) } : {}),
    });
    sessions.push({
      key: target.key,
      desired: target.desired,
      endpointName: shown,
      endpoint: open.endpoint,
      sandbox: open.endpoint.sandbox,
      client,
      api: new AdsApi(client),
      reads: readsOf(client),
      lock,
      store,
      root: target.root,
      stateDir,
      ...(typeof adopted === 'object' && adopted.formerKey !== undefined ? { formerKey: adopted.formerKey } : {}),
      state,
      accountId: target.accountId ?? state.account_id,
    });
  }
  if (diagnostics.length > 0) {
    await closeAll();
    return { sessions: [], diagnostics, close: async () => {} };
  }
  return { sessions, diagnostics, close: closeAll };
}
