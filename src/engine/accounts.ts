/**
 * Opening the accounts of a run (Terraform's backend): for each account, its endpoint and an API
 * client for it, its state held under its lock and loaded (a damaged journal refused), and the
 * live account id. What the run is given from outside — how to open an endpoint (the embedded
 * emulator among them), a state backend, credentials — comes in `AccountEnvironment`, and the
 * run's options (parallelism, timeouts, clock) in `RunOptions`; problems come back as diagnostics,
 * and nothing is held then.
 */
import { join } from 'node:path';
import { AdsApi } from '../api/ads-api.js';
import { ApiClient, type WaitNotice } from '../api/client.js';
import { chooseEndpoint, endpointSetting, type EndpointChoice, type EndpointGiven } from '../api/endpoint-choice.js';
import type { Endpoint } from '../api/endpoints.js';
import { RateTracker } from '../api/rate-tracker.js';
import { Semaphore } from '../api/semaphore.js';
import type { OAuthCredentials } from '../api/signer.js';
import type { Clock } from '../clock/clock.js';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import { redactUserinfo } from '../diag/redact.js';
import type { DesiredAccount } from '../manifest/types.js';
import { loadState } from '../state/apply-journal.js';
import { describeJournalDamage } from '../state/journal.js';
import { stateDirOf } from '../state/location.js';
import { beatNow } from '../state/lock-heartbeat.js';
import { inFlightNotice, lockedMessage, tookOverWarning } from '../state/lock-notices.js';
import type { AccountState } from '../state/state-file.js';
import type { Lock, StateStore } from '../state/store.js';
import { stateByAccount } from './adopt-state.js';
import { runClientOptions } from './client-options.js';
import type { PlanAccount } from './plan-accounts.js';
import type { RunOptions } from './run-options.js';

/** Which account to open: from a manifest, or from a saved plan. */
export interface AccountTarget {
  key: string;
  /** The configuration root whose `.adsctl/` holds the account's state. */
  root: string;
  endpoint?: string;
  accountId?: string;
  desired?: DesiredAccount;
  /** The objects the run handles for the account when it has no desired state to count: a saved plan's changes. */
  objects?: number;
}

/**
 * The objects, in manifests, states and saved plans, from which a run may keep its main thread
 * busy for seconds on end: the diff of 5,000 objects takes about 0.4 s, of 100,000 about 11 s.
 */
export const LARGE_RUN_OBJECTS = 5_000;

/** Whether a run over `targets`, whose states `states` were read, is large (`LARGE_RUN_OBJECTS`). */
export function largeRun(targets: readonly Pick<AccountTarget, 'desired' | 'objects'>[], states: readonly Pick<AccountState, 'resources'>[]): boolean {
  let objects = 0;
  for (const t of targets) objects += t.desired?.resources.length ?? t.objects ?? 0;
  for (const s of states) objects += Object.keys(s.resources).length;
  return objects >= LARGE_RUN_OBJECTS;
}

/** An endpoint opened for a run. */
interface OpenedEndpoint {
  endpoint: Endpoint;
  /** Credentials that come with the endpoint itself (the embedded emulator's seed). */
  builtInCredentials?: OAuthCredentials;
  close: () => Promise<void>;
}

/** What a run is given from outside to open its accounts. */
export interface AccountEnvironment {
  /**
   * The endpoint the run was given besides its manifests' (`--endpoint`, ADSCTL_ENDPOINT), which
   * `chooseEndpoint` (src/api/endpoint-choice.ts) weighs against each manifest's `endpoint:`.
   */
  endpointGiven?: Pick<EndpointGiven, 'flag' | 'environment'>;
  /**
   * Opens endpoint `name`; `dotDir` is the root's `.adsctl/` (where `local` keeps its data), a busy
   * `local` is waited for up to `waitMs`, and a remote endpoint carries `connectTimeoutMs` (both from
   * the run's `RunOptions`). An error message for a bad or busy one.
   */
  openEndpoint(name: string, dotDir: string, how: { waitMs: number; connectTimeoutMs: number }): Promise<OpenedEndpoint | string>;
  /** The credentials for endpoint `name`, when there are any, and where they came from in words that name no secret (a 401 names it). */
  credentialsFor(name: string): { credentials: OAuthCredentials; source: string } | undefined;
  /** The state backend of a configuration root. */
  openStore(root: string): Promise<StateStore | Diagnostic>;
  /** The command that removes lock `id` of the state under `root`, as the user would type it. */
  unlockCommand(id: string, root: string): string;
  /** Told as the run goes: a lock of a run that is gone, taken over. */
  warn(text: string): void;
  /** Told when a request waits long for a rate limit. */
  onWait?: (notice: WaitNotice) => void;
  /** Each request, for `--debug`. */
  trace?: (line: string) => void;
  /** Waits — for a former holder's writes in flight, and each client's retries and rate limits (tests replace it); a timer when absent. */
  sleep?: (ms: number) => Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long to wait before reading an account whose former lock holder may still be running
 * (`Lock.previousMayRun`) with `open` requests of its journal not known to be answered: until the
 * last of them, sent at the latest when that holder was last seen, has passed its deadline; 0
 * when there are none, or the holder is known gone.
 */
export function inFlightWait(lock: Pick<Lock, 'previousMayRun'>, open: number): number {
  const may = lock.previousMayRun;
  if (may === undefined || open === 0) return 0;
  return Math.max(0, may.requestTimeoutMs - may.silentMs);
}

export interface AccountSession extends PlanAccount {
  /** Absent for a saved plan, which carries its own operations. */
  desired: DesiredAccount | undefined;
  /** The endpoint name in force (`chooseEndpoint`: ADSCTL_ENDPOINT, else the manifest's, else local). */
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
  /** The run's clock, as `openAccounts` was given it. */
  clock: Clock;
  /** Write requests in flight at once when the account is applied: the run's `parallelism`, as `openAccounts` was given it. */
  parallelism: number;
}

export interface Sessions {
  sessions: AccountSession[];
  diagnostics: Diagnostic[];
  /** Releases every lock and closes clients and endpoints. */
  close(): Promise<void>;
}

/** What a run says when endpoint `name` has no credentials: where to set them (the name without any userinfo). */
export function noCredentials(name: string): string {
  return `no credentials for endpoint ${redactUserinfo(name)}: set ADSCTL_CONSUMER_KEY, ADSCTL_CONSUMER_SECRET, ADSCTL_ACCESS_TOKEN and ADSCTL_ACCESS_TOKEN_SECRET, or run adsctl auth login`;
}

/**
 * What an error of the service adds for a run (`ClientOptions.hints`): the setting that chose the
 * endpoint, and where the credentials came from (none for the embedded emulator's own).
 */
export function runHints(choice: EndpointChoice, credentials: string | undefined): { endpoint: string; unauthorized?: string } {
  return { endpoint: `check ${endpointSetting(choice.source)}`, ...(credentials === undefined ? {} : { unauthorized: `the credentials came from ${credentials}: check them with adsctl auth whoami` }) };
}

/**
 * The count of reads a client made. Made outside the loop of `openAccounts`: a closure made
 * inside it would keep the loop's target alive, and with it the account's manifest resources,
 * which the run lets go once planned.
 */
function readsOf(client: ApiClient): () => number {
  return () => client.counts.reads;
}

/**
 * Opens a session per account for `operation` (what its locks name), with the run's options; on
 * any problem, returns diagnostics and holds nothing.
 */
export async function openAccounts(accounts: readonly AccountTarget[], env: AccountEnvironment, options: RunOptions, operation: string): Promise<Sessions> {
  const endpoints = new Map<string, OpenedEndpoint>();
  const stores = new Map<string, StateStore>();
  // one budget of requests in flight for every account of the run (--parallelism)
  const shared = new Semaphore(options.parallelism);
  // and one account of the rate-limit budgets its clients draw from together
  const rates = new RateTracker();
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
  for (const target of accounts) {
    const choice = chooseEndpoint({ ...env.endpointGiven, manifest: target.endpoint });
    const { name } = choice;
    const where = target.desired?.resources[0]?.source;
    const shown = redactUserinfo(name);
    // the embedded emulator keeps its data with the state, one per root
    const endpointKey = `${name}\u0000${target.root}`;
    let open = endpoints.get(endpointKey);
    if (open === undefined) {
      const opened = await env.openEndpoint(name, join(target.root, '.adsctl'), { waitMs: options.lockTimeoutMs, connectTimeoutMs: options.connectTimeoutMs });
      if (typeof opened === 'string') {
        // a bad ADSCTL_ENDPOINT or --endpoint is the run's, not the manifest's: no position
        diagnostics.push(choice.source === 'manifest' || choice.source === 'default' ? errorAt('endpoint', opened, where) : errorAt('endpoint', `${endpointSetting(choice.source)}: ${opened}`));
        continue;
      }
      open = opened;
      endpoints.set(endpointKey, open);
    }
    const found = open.builtInCredentials === undefined ? env.credentialsFor(name) : { credentials: open.builtInCredentials, source: undefined };
    if (found === undefined) {
      diagnostics.push(errorAt('credentials', noCredentials(name)));
      continue;
    }
    const stateDir = stateDirOf(target.root);
    let store = stores.get(target.root);
    if (store === undefined) {
      const opened = await env.openStore(target.root);
      if (!('read' in opened)) {
        diagnostics.push(opened);
        continue;
      }
      store = opened;
      stores.set(target.root, store);
    }
    const lock = await store.lock(target.key, operation, options.lockTimeoutMs, options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs });
    if ('heldBy' in lock) {
      diagnostics.push(errorAt('state-locked', lockedMessage(target.key, lock.heldBy, (id) => env.unlockCommand(id, target.root))));
      continue;
    }
    if (lock.tookOver !== undefined) env.warn(tookOverWarning(target.key, lock.tookOver, lock.tookOverBecause));
    const adopted = await stateByAccount(store, target.key, target.accountId, shown, operation !== 'plan');
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
    // a former holder that may still run may still have writes on the wire: nothing is read
    // (and nothing looked up by identity) until the last of them has landed or timed out
    const settle = inFlightWait(lock, loaded.journal.open.length);
    if (settle > 0) {
      env.warn(inFlightNotice(target.key, lock.tookOver, loaded.journal.open.length, settle, lock.previousMayRun!.requestTimeoutMs));
      await (env.sleep ?? sleep)(settle);
    }
    const client = new ApiClient({
      ...runClientOptions({ endpoint: open.endpoint, options, ...(env.trace === undefined ? {} : { trace: env.trace }), ...(env.onWait === undefined ? {} : { onWait: env.onWait }) }),
      credentials: found.credentials,
      hints: runHints(choice, found.source),
      parallelism: options.parallelism,
      shared,
      rates,
      ...(lock.lost === undefined ? {} : { writesStop: lock.lost }),
      ...(lock.verify === undefined ? {} : { verifyLease: () => lock.verify!() }),
      ...(env.sleep === undefined ? {} : { sleep: env.sleep }),
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
      clock: options.clock,
      parallelism: options.parallelism,
    });
  }
  if (diagnostics.length > 0) {
    await closeAll();
    return { sessions: [], diagnostics, close: async () => {} };
  }
  // a large run's lock heartbeat must not wait for the main thread (state/lock-heartbeat.ts)
  if (largeRun(accounts, sessions.map((s) => s.state))) beatNow();
  return { sessions, diagnostics, close: closeAll };
}
