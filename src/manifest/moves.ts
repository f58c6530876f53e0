/**
 * The top-level `moved` and `removed` entries: addresses parsed at their positions, checked
 * against what the file declares. A move's source and a removal's address must have left the
 * manifest (else the entry contradicts it), and a move keeps its kind. What the entries do to the
 * state is the plan's (src/plan/moves.ts), which knows the state.
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

/** Reads the `moved` entries: each source must have left the manifest, and keep its kind at the destination. */
export function readMoved(ctx: FileContext, root: YMap): MovedEntry[] {
  const out: MovedEntry[] = [];
  const sources = new Map<string, SourceRange>();
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
    sources.set(fromText, range);
    out.push({ from, to, source: range });
  }
  return out;
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
