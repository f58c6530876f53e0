/**
 * The top-level `moved` and `removed` entries: addresses parsed at their positions, checked
 * against what the file declares and against each other. A move's source and a removal's address
 * must have left the manifest (else the entry contradicts it), a move keeps its kind, one address
 * moves once, two moves never land on one address (two live objects cannot share it), and moves
 * chain (`a → b`, `b → c`) but never in a cycle. What the entries do to the state is the plan's
 * (src/plan/moves.ts), which knows the state.
 */
import type { SourceRange } from '../diag/source-range.js';
import { formatAddress, parseAddress } from './address.js';
import { rangeOf, report, type FileContext } from './context.js';
import { asMap, asSeq, childPointer, stringValue } from './nodes.js';
import type { MovedEntry, RemovedEntry, ResourceAddress } from './types.js';
import type { YMap } from './yaml-tree.js';

/** The address written at `field` of the entry at `pointer`, reported at its value when it does not parse. */
function addressAt(ctx: FileContext, entry: YMap, pointer: string, field: string): ResourceAddress | undefined {
  const node = entry.byKey.get(field)?.value;
  const text = stringValue(node);
  if (node === undefined || text === undefined) return undefined;
  const range = rangeOf(ctx, node);
  const parsed = parseAddress(text, range);
  for (const d of parsed.diagnostics) report(ctx, childPointer(pointer, field), d.code, d.message, range);
  return parsed.value;
}

/** The first address the file declares at `address` or under it. */
function declaredWithin(ctx: FileContext, address: ResourceAddress): string | undefined {
  const text = formatAddress(address);
  for (const key of ctx.byAddress.keys()) if (key === text || key.startsWith(`${text}.`) || key.startsWith(`${text}[`)) return key;
  return undefined;
}

function entrySources(ctx: FileContext, root: YMap, section: string): Array<{ entry: YMap; pointer: string; range: SourceRange }> {
  return (asSeq(root.byKey.get(section)?.value)?.items ?? []).flatMap((item, i) => {
    const entry = asMap(item);
    return entry === undefined ? [] : [{ entry, pointer: childPointer(`/${section}`, i), range: rangeOf(ctx, item) }];
  });
}

/** Whether the address text `text` is `root` or sits under it. */
function isWithin(text: string, root: string): boolean {
  return text === root || text.startsWith(`${root}.`) || text.startsWith(`${root}[`);
}

/**
 * One cycle of `moves` (indexes, in the order the moves would chain), where a move follows
 * another when its source lies at or under the other's destination; undefined when there is none.
 */
function cycleOf(moves: ReadonlyArray<{ from: string; to: string }>): number[] | undefined {
  const state = new Array<'open' | 'done' | undefined>(moves.length);
  const path: number[] = [];
  const visit = (i: number): number[] | undefined => {
    state[i] = 'open';
    path.push(i);
    for (const [j, next] of moves.entries()) {
      if (!isWithin(next.from, moves[i]?.to ?? '')) continue;
      if (state[j] === 'open') return path.slice(path.indexOf(j));
      if (state[j] === undefined) {
        const found = visit(j);
        if (found !== undefined) return found;
      }
    }
    path.pop();
    state[i] = 'done';
    return undefined;
  };
  for (const i of moves.keys()) {
    if (state[i] !== undefined) continue;
    const found = visit(i);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Refuses the moves that close a cycle (`a → b`, `b → a`: no order of renames makes both), each
 * at the last entry of its cycle in the file, until none is left; returns the others.
 */
function withoutCycles(ctx: FileContext, entries: Array<MovedEntry & { pointer: string }>): Array<MovedEntry & { pointer: string }> {
  let left = entries;
  for (;;) {
    const texts = left.map((e) => ({ from: formatAddress(e.from), to: formatAddress(e.to) }));
    const cycle = cycleOf(texts);
    if (cycle === undefined) return left;
    const last = Math.max(...cycle);
    const entry = left[last] as MovedEntry & { pointer: string };
    const start = cycle.indexOf(last);
    const order = [...cycle.slice(start + 1), ...cycle.slice(0, start + 1)].map((i) => texts[i]?.from ?? '');
    report(ctx, entry.pointer, 'move-cycle', `${formatAddress(entry.from)} cannot move to ${formatAddress(entry.to)}: the moves form a cycle (${[...order, order[0] ?? ''].join(' -> ')}), which no order of renames makes; move through a free address in two applies`, entry.source, cycle.filter((i) => i !== last).map((i) => ({ message: 'part of the cycle', range: (left[i] as MovedEntry).source })));
    left = left.filter((_, i) => i !== last);
  }
}

/**
 * Reads the `moved` entries: each source must have left the manifest, keep its kind at the
 * destination, be moved once, and share its destination with no other entry; entries in a cycle
 * are refused. Returned in file order.
 */
export function readMoved(ctx: FileContext, root: YMap): MovedEntry[] {
  const out: Array<MovedEntry & { pointer: string }> = [];
  const sources = new Map<string, SourceRange>();
  const destinations = new Map<string, { from: string; range: SourceRange }>();
  for (const { entry, pointer, range } of entrySources(ctx, root, 'moved')) {
    const from = addressAt(ctx, entry, pointer, 'from');
    const to = addressAt(ctx, entry, pointer, 'to');
    if (from === undefined || to === undefined) continue;
    const fromText = formatAddress(from);
    const toText = formatAddress(to);
    if (from.kind !== to.kind) {
      report(ctx, pointer, 'move-kind', `${fromText} is a ${from.kind.replace(/_/g, ' ')} and ${toText} a ${to.kind.replace(/_/g, ' ')}; a move keeps the kind`, range);
      continue;
    }
    if (fromText === toText || toText.startsWith(`${fromText}.`) || toText.startsWith(`${fromText}[`)) {
      report(ctx, pointer, 'move-into-itself', `${fromText} cannot move to ${toText}`, range);
      continue;
    }
    const still = declaredWithin(ctx, from);
    if (still !== undefined) {
      report(ctx, childPointer(pointer, 'from'), 'move-source-declared', `${still} is still declared in the manifest; a moved entry's from must have left it (remove the entry once the move is applied and you want the address back)`, range);
      continue;
    }
    const first = sources.get(fromText);
    if (first !== undefined) {
      report(ctx, pointer, 'duplicate-move', `${fromText} is already moved by another entry`, range, [{ message: 'moved here', range: first }]);
      continue;
    }
    const other = destinations.get(toText);
    if (other !== undefined) {
      report(ctx, childPointer(pointer, 'to'), 'duplicate-move-destination', `${fromText} cannot move to ${toText}: another entry already moves ${other.from} there, and one address binds one object`, range, [{ message: 'moved there here', range: other.range }]);
      continue;
    }
    sources.set(fromText, range);
    destinations.set(toText, { from: fromText, range });
    out.push({ from, to, source: range, pointer });
  }
  return withoutCycles(ctx, out).map(({ from, to, source }) => ({ from, to, source }));
}

/** Reads the `removed` entries: each address must have left the manifest, with everything under it. */
export function readRemoved(ctx: FileContext, root: YMap): RemovedEntry[] {
  const out: RemovedEntry[] = [];
  for (const { entry, pointer, range } of entrySources(ctx, root, 'removed')) {
    const from = addressAt(ctx, entry, pointer, 'from');
    if (from === undefined) continue;
    const still = declaredWithin(ctx, from);
    if (still !== undefined) {
      report(ctx, childPointer(pointer, 'from'), 'removed-declared', `${still} is still declared in the manifest; remove it from the manifest to stop managing it, or drop this removed entry`, range);
      continue;
    }
    out.push({ from, source: range });
  }
  return out;
}
