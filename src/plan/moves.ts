/**
 * The `moved` and `removed` entries of a manifest as a transform of the state, made before the
 * diff (Terraform's refactoring blocks): a move renames the state entry at its source, and every
 * entry under it, to the destination, so the diff finds the same live objects at their new
 * addresses and sends nothing for them; a removal forgets the entries, so the live objects are
 * neither read nor deleted. The plan carries what was moved and removed; apply rewrites the state
 * the same way (`moveEntries`, `removeEntries`) before it sends anything. `state mv` moves with
 * `addressMoves` too.
 */
import { errorAt, warningAt, type Diagnostic } from '../diag/diagnostic.js';
import { formatAddress, parseAddress } from '../manifest/address.js';
import type { DesiredAccount, MovedEntry, ResourceAddress, ResourceKind } from '../manifest/types.js';
import type { AccountState, StateResource } from '../state/state-file.js';

/** A move the plan makes: the entry's addresses, the live id at its source, and how many state entries move (its own and those under it). */
export interface PlannedMove {
  from: string;
  to: string;
  kind: ResourceKind;
  id?: string;
  count: number;
}

/** A removal the plan makes: the entry's address, its live id, and how many state entries are forgotten. */
export interface PlannedRemoval {
  address: string;
  kind: ResourceKind;
  id?: string;
  count: number;
}

/** Whether the address text `text` is `root` or sits under it. */
function isWithin(text: string, root: string): boolean {
  return text === root || text.startsWith(`${root}.`) || text.startsWith(`${root}[`);
}

/**
 * The state addresses at `from` and inside it (its line items, their targeting, ...), each with
 * the address it takes under `to`: a resource moved without its children would orphan them, and
 * the next plan would delete and recreate every one.
 */
export function addressMoves(state: AccountState, from: ResourceAddress, to: ResourceAddress): Array<readonly [string, string]> {
  const root = formatAddress(from);
  const moves: Array<readonly [string, string]> = [];
  for (const text of Object.keys(state.resources)) {
    if (!isWithin(text, root)) continue;
    const address = text === root ? from : parseAddress(text).value;
    if (address === undefined) continue;
    moves.push([text, formatAddress({ kind: address.kind, steps: [...to.steps, ...address.steps.slice(from.steps.length)] })]);
  }
  return moves;
}

/** The first destination of `moves` already bound in `state` by an entry that does not move itself. */
export function takenDestination(state: AccountState, moves: ReadonlyArray<readonly [string, string]>): string | undefined {
  const moving = new Set(moves.map(([from]) => from));
  return moves.find(([, to]) => state.resources[to] !== undefined && !moving.has(to))?.[1];
}

/** Renames the state entries of `moves` (checked with `takenDestination`); returns each with its entry. */
export function moveEntries(state: AccountState, moves: ReadonlyArray<readonly [string, string]>): Array<readonly [string, string, StateResource]> {
  const moved = moves.flatMap(([from, to]) => {
    const entry = state.resources[from];
    return entry === undefined ? [] : [[from, to, entry] as const];
  });
  for (const [from] of moved) delete state.resources[from];
  for (const [, to, entry] of moved) state.resources[to] = entry;
  return moved;
}

/** Forgets the state entries at `address` and under it; returns how many. */
export function removeEntries(state: AccountState, address: string): number {
  const gone = Object.keys(state.resources).filter((text) => isWithin(text, address));
  for (const text of gone) delete state.resources[text];
  return gone.length;
}

/** What the `moved` and `removed` entries of one account do to a copy of its state. */
interface Refactoring {
  /** The state as the diff sees it: moves made, removals forgotten. */
  state: AccountState;
  moves: PlannedMove[];
  removals: PlannedRemoval[];
  diagnostics: Diagnostic[];
}

/**
 * The `moved` entries in the order they chain: one whose source lies at or under another's
 * destination comes after that one (`b → c` after `a → b`, however the file orders them, so the
 * object at `a` lands at `c`), file order otherwise; the manifest refuses cycles.
 */
function chainOrder(moved: readonly MovedEntry[]): MovedEntry[] {
  const texts = moved.map((e) => ({ from: formatAddress(e.from), to: formatAddress(e.to) }));
  const placed = new Set<number>();
  const out: MovedEntry[] = [];
  const waits = (i: number): boolean => texts.some((t, j) => j !== i && !placed.has(j) && isWithin(texts[i]?.from ?? '', t.to));
  while (out.length < moved.length) {
    const ready = moved.findIndex((_, i) => !placed.has(i) && !waits(i));
    const next = ready === -1 ? moved.findIndex((_, i) => !placed.has(i)) : ready;
    placed.add(next);
    out.push(moved[next] as MovedEntry);
  }
  return out;
}

/**
 * Applies the `moved` entries (in the order they chain) and the `removed` entries of `desired` to a copy of
 * `state`. A finished move (nothing at its source) and a finished removal do nothing; a move onto
 * a bound address is an error at its entry, and moves nothing. An `import` entry whose resource
 * the state already binds to its id is said to be done, as a warning.
 */
export function refactorState(desired: DesiredAccount | undefined, state: AccountState): Refactoring {
  const moved = desired?.moved ?? [];
  const removed = desired?.removed ?? [];
  const out: Refactoring = { state, moves: [], removals: [], diagnostics: [] };
  if (moved.length > 0 || removed.length > 0) out.state = { ...state, resources: { ...state.resources } };
  for (const entry of chainOrder(moved)) {
    const from = formatAddress(entry.from);
    const to = formatAddress(entry.to);
    const moves = addressMoves(out.state, entry.from, entry.to);
    if (moves.length === 0) continue;
    const taken = takenDestination(out.state, moves);
    if (taken !== undefined) {
      const bound = out.state.resources[taken];
      out.diagnostics.push(errorAt('move-onto-bound', `${from} cannot move to ${to}: ${taken} is already bound to ${bound?.kind.replace(/_/g, ' ') ?? 'object'} ${bound?.id ?? ''}; remove this entry, or the binding of ${taken} first (adsctl state rm)`, entry.source));
      continue;
    }
    const root = out.state.resources[from];
    moveEntries(out.state, moves);
    out.moves.push({ from, to, kind: entry.from.kind, ...(root === undefined ? {} : { id: root.id }), count: moves.length });
  }
  for (const entry of removed) {
    const address = formatAddress(entry.from);
    const root = out.state.resources[address];
    const count = removeEntries(out.state, address);
    if (count > 0) out.removals.push({ address, kind: entry.from.kind, ...(root === undefined ? {} : { id: root.id }), count });
  }
  for (const entry of desired?.imports ?? []) {
    const address = formatAddress(entry.address);
    if (out.state.resources[address]?.id === entry.id) out.diagnostics.push(warningAt('import-done', `${address} is already bound to id ${entry.id}: this import entry has nothing left to do, and may be removed`, entry.source));
  }
  return out;
}
