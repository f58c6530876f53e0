/**
 * `ApplyRun`: what the steps of one account's apply share, opened once and passed to each step
 * explicitly. It holds the plan and where it goes, the journal (opened when the first request is
 * about to go out, so an apply that sends nothing leaves none), the state (whose resources are the
 * ids bound so far), the tally of outcomes, the request slots, when the state was last
 * checkpointed, and the member-store removals awaited at the end.
 */
import type { AdsApi } from '../api/ads-api.js';
import { Semaphore } from '../api/semaphore.js';
import type { ResourceChange } from '../diff/types.js';
import type { WriteContext } from '../kinds/descriptor.js';
import { formatAddress } from '../manifest/address.js';
import type { AccountPlan, Operation } from '../plan/types.js';
import { ApplyJournal } from '../state/apply-journal.js';
import type { AccountState } from '../state/state-file.js';
import type { JournalStore, MemberStores, StateWriter } from '../state/store.js';
import { emptyResult, type ApplyEvent, type ApplyResult } from './events.js';
import { writeContextOf } from './write-context.js';

/** What an apply writes: checkpoints, the journal, member stores kept beside the state. */
type ApplyStore = StateWriter & JournalStore & MemberStores;

/** What `applyPlan` is given. */
export interface ApplyInput {
  plan: AccountPlan;
  api: AdsApi;
  /** The live account id. */
  accountId: string;
  /** The locked state of the account; changed as the apply goes, and checkpointed. */
  state: AccountState;
  /** Where the state and its journal are kept (and its member stores, where the backend keeps them). */
  store: ApplyStore;
  /** The state directory, where what is kept beside the state lives (member stores). */
  stateDir: string;
  /** What the versions this apply keeps are named after: apply, destroy. */
  operation?: string;
  /** The run's clock (epoch ms): when writes are sent (journal entries, finding lost creates) and when to checkpoint; the wall clock when not given. */
  now?: () => number;
  /** The state is checkpointed at most this often while requests go on; the default is 5 s. */
  checkpointEveryMs?: number;
  onEvent?: (event: ApplyEvent) => void;
  /** Aborted to stop the apply: nothing more is sent; what is in flight finishes and is recorded. */
  stop?: AbortSignal;
  /** Write requests in flight at once; the default is the client's. */
  parallelism?: number;
}

/** How far the apply got: what it reports, and what decides whether an operation may go. */
interface Tally {
  readonly result: ApplyResult;
  /** Operations in the plan. */
  readonly total: number;
  /** Operations counted in `progress` events. */
  done: number;
  /** Keys of the plan's operations whose request went out (told once, in a `sending` event). */
  readonly sent: Set<string>;
  /** Keys of the operations that succeeded; an operation runs only after all it depends on is here. */
  readonly succeeded: Set<string>;
  /** Addresses whose old object this apply deleted (a delete, or the first half of a replace). */
  readonly deleted: Set<string>;
}

/** When the state was last checkpointed while requests go on, and whether a checkpoint is being written. */
interface Checkpoints {
  /** What the versions this apply keeps are named after: apply, destroy. */
  readonly operation: string;
  readonly everyMs: number;
  last: number;
  busy: boolean;
}

/** What every step of one apply reads and changes. */
export interface ApplyRun {
  readonly plan: AccountPlan;
  readonly api: AdsApi;
  readonly accountId: string;
  /** Changed as outcomes come in: its resources are the ids bound so far. */
  readonly state: AccountState;
  readonly store: ApplyStore;
  readonly stateDir: string;
  /**
   * The journal, opened on first use: begun and named in a checkpoint before the first request
   * goes out. Every caller gets the same one.
   */
  readonly journal: () => Promise<ApplyJournal>;
  /** The journal when a request opened it (or the run found one under way); undefined while nothing was sent. */
  readonly journalOpened: () => ApplyJournal | undefined;
  /**
   * A digest of the state as the apply found it (state-digest.ts), when its plan has no operation:
   * with nothing sent, the state is written at the end only when what the plan records changed it.
   */
  readonly found: string | undefined;
  readonly context: WriteContext;
  /** The plan's changes by formatted address. */
  readonly changes: ReadonlyMap<string, ResourceChange>;
  /** The plan's operations by key. */
  readonly planned: ReadonlyMap<string, Operation>;
  readonly tally: Tally;
  /** At most `parallelism` write requests in flight. */
  readonly slots: Semaphore;
  readonly checkpoints: Checkpoints;
  /** Removals of member stores kept in the state's database, awaited after the last checkpoint; each settles to its error or undefined. */
  readonly forgetting: Array<Promise<unknown>>;
  readonly now: () => number;
  readonly emit: (event: ApplyEvent) => void;
  /** True once the caller asked the apply to stop. */
  readonly stopped: () => boolean;
}

/** Write requests in flight at once unless the caller says otherwise (the client's default). */
const DEFAULT_PARALLELISM = 8;

/** How often the state is checkpointed while an apply goes on, unless the caller says otherwise. */
const CHECKPOINT_EVERY_MS = 5_000;

/** The number of operations in `plan`'s layers. */
export const operationCount = (plan: AccountPlan): number => plan.layers.flat().reduce((n, s) => n + s.operations.length, 0);

/**
 * Opens the apply `input` asks for, announces its start, and returns what its steps share. Its
 * journal is opened now only when the state names one under way (a sandbox account created just
 * before); otherwise when the first request is about to go out. `found` is the digest of the state
 * before the plan's moves, when the plan has no operation.
 */
export async function openRun(input: ApplyInput, found?: string): Promise<ApplyRun> {
  const { plan, state, store } = input;
  const emit = (e: ApplyEvent): void => input.onEvent?.(e);
  const now = input.now ?? Date.now;
  const changes = new Map<string, ResourceChange>(plan.changes.map((c) => [formatAddress(c.address), c]));
  let opened: ApplyJournal | undefined;
  let opening: Promise<ApplyJournal> | undefined;
  const journal = (): Promise<ApplyJournal> =>
    (opening ??= ApplyJournal.open(store, state).then((j) => {
      opened = j;
      return j;
    }));
  if (state.journal_id !== undefined) await journal();
  const planned = new Map(plan.layers.flat().flatMap((s) => s.operations).map((op) => [op.key, op]));
  const result: ApplyResult = emptyResult();
  const total = operationCount(plan);
  const slots = new Semaphore(input.parallelism ?? DEFAULT_PARALLELISM);
  emit({ type: 'start', account: plan.account, operations: total });
  const checkpoints: Checkpoints = { operation: input.operation ?? 'apply', everyMs: input.checkpointEveryMs ?? CHECKPOINT_EVERY_MS, last: now(), busy: false };
  return {
    plan,
    api: input.api,
    accountId: input.accountId,
    state,
    store,
    stateDir: input.stateDir,
    journal,
    journalOpened: () => opened,
    found,
    context: writeContextOf(plan, input.stateDir, emit, store.memberRows?.(plan.account), store.memberFence?.(plan.account)),
    changes,
    planned,
    tally: { result, total, done: 0, sent: new Set(), succeeded: new Set(), deleted: new Set() },
    slots,
    checkpoints,
    forgetting: [],
    now,
    emit,
    stopped: () => input.stop?.aborted === true,
  };
}
