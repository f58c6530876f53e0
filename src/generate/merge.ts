/**
 * `generate --merge` (docs/manifest.md, "Adopting what already exists"): the objects of a live
 * account that no manifest binds yet, added to the account's existing manifest with their
 * children, every existing line, comment and key of the file kept byte for byte. The manifest is
 * generated whole with the keys the existing file gives what it binds (`GenerateInput.fixedKeys`),
 * so references to those read as the file writes them; then each new object whose parent the file
 * already holds (or the account) is taken from it and its text inserted at the end of the
 * collection it belongs to in the file — the collection added to its parent when the file has
 * none. A member of a list (a targeting criterion, a promoted post, a feature) added to an object
 * the file holds is not inserted: it is named when the file keeps that list, and left to the
 * service when it keeps none. Nothing of the file is parsed back into text: only insertions are
 * made. Pure.
 */
import { Document, isMap, isScalar, isSeq, parseDocument, YAMLMap, type Node, type Pair } from 'yaml';
import type { GeneratedBinding, GeneratedManifest } from './generate.js';

/** What merging made. */
interface Merged {
  text: string;
  /** The bindings of the objects added (with their children). */
  added: GeneratedBinding[];
  /** Objects not added, in words: members of a list in an object the file declares. */
  notAdded: string[];
}

/** Where in the existing file entries go, and the entries. */
interface Insertion {
  /** Offset in the existing text: the start of a line. */
  at: number;
  indent: number;
  /** The collection's own line first (`line_items:`), when the file has none yet. */
  collection?: string;
  pairs: Pair[];
}

const STRINGIFY = { lineWidth: 0, flowCollectionPadding: true } as const;

/** The YAML path of an address's steps: collection, key, collection, key… */
const pathOf = (steps: GeneratedBinding['steps']): string[] => steps.flatMap((s) => [s.collection, s.key]);

/** The offset just past the end of the line that holds `offset`. */
function lineAfter(text: string, offset: number): number {
  const nl = text.indexOf('\n', Math.max(0, offset));
  return nl < 0 ? text.length : nl + 1;
}

/** The column of `offset` in `text`. */
function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** The end of a block map's content in `text`: past the line of its last value, trailing comments not included. */
function contentEnd(text: string, map: YAMLMap): number {
  const last = map.items[map.items.length - 1];
  const node = (last?.value ?? last?.key) as Node | undefined;
  const end = node?.range?.[1] ?? map.range?.[1] ?? text.length;
  return lineAfter(text, end - 1);
}

/** `pairs` as block text, each line indented by `indent` columns. */
function render(pairs: Pair[], indent: number): string {
  const doc = new Document();
  const map = new YAMLMap();
  map.items.push(...pairs);
  doc.contents = map;
  const pad = ' '.repeat(indent);
  return doc
    .toString(STRINGIFY)
    .split('\n')
    .map((line) => (line === '' ? line : `${pad}${line}`))
    .join('\n');
}

/**
 * Merges into `existing` (the text of the account's manifest) the objects of `generated` whose
 * `kind:id` is not in `bound`; an error, naming the line, where the file's collection cannot take
 * them (a flow mapping).
 */
export function mergeManifest(existing: string, generated: GeneratedManifest, bound: ReadonlySet<string>): Merged | { error: string } {
  const theirs = parseDocument(generated.text);
  const ours = parseDocument(existing);
  if (ours.errors.length > 0) return { error: `the manifest does not read as YAML: ${ours.errors[0]!.message}` };
  // generate binds each object before its children: a parent is seen before what is under it
  const fresh = generated.bindings.filter((b) => b.kind !== 'account' && !bound.has(`${b.kind}:${b.id}`));
  const freshPaths = new Set(fresh.map((b) => pathOf(b.steps).join('\u0000')));
  const byPath = new Map(generated.bindings.map((b) => [pathOf(b.steps).join('\u0000'), b]));
  const added: GeneratedBinding[] = [];
  const addedPaths = new Set<string>();
  const notAdded: string[] = [];
  const insertions = new Map<string, Insertion>();
  for (const b of fresh) {
    const parentPath = pathOf(b.steps.slice(0, -1));
    const parentKey = parentPath.join('\u0000');
    const parent = b.steps.length <= 1 ? undefined : byPath.get(parentKey)?.address;
    // a child of a new object comes in its parent's text, when the parent was added
    if (b.steps.length > 1 && freshPaths.has(parentKey)) {
      if (addedPaths.has(parentKey)) {
        added.push(b);
        addedPaths.add(pathOf(b.steps).join('\u0000'));
      }
      continue;
    }
    const last = b.steps[b.steps.length - 1]!;
    const theirCollection = theirs.getIn([...parentPath, last.collection], true);
    const pair = isMap(theirCollection) ? theirCollection.items.find((p) => isScalar(p.key) && String(p.key.value) === last.key) : undefined;
    if (pair === undefined) {
      // a member of a list (targeting, promoted posts, features): said where the file keeps that
      // list; where it keeps none, the file leaves the list to the service, and so does the merge
      if (ours.hasIn([...parentPath, last.collection])) notAdded.push(`${b.address} (id ${b.id}), added by hand to ${parent ?? 'the account'}: declare it in its list there`);
      continue;
    }
    const ourParent = parentPath.length === 0 ? ours.contents : ours.getIn(parentPath, true);
    if (!isMap(ourParent)) {
      notAdded.push(`${b.address} (id ${b.id}): the manifest has no block for ${parent ?? 'the account'} to add it to`);
      continue;
    }
    const ourCollection = ourParent.get(last.collection, true);
    const place = `${parentPath.join('\u0000')}\u0000${last.collection}`;
    let insertion = insertions.get(place);
    if (insertion === undefined) {
      if (ourCollection === undefined || (isScalar(ourCollection) && ourCollection.value === null)) {
        // the file has no such collection yet: it is added at the end of the parent, with the parent's own indent
        const first = ourParent.items[0]?.key as Node | undefined;
        const indent = first?.range === undefined || first.range === null ? 0 : columnOf(existing, first.range[0]);
        if (isScalar(ourCollection)) return { error: `line ${lineOf(existing, ourCollection.range?.[0] ?? 0)}: ${last.collection} is empty; write the objects under it, or remove the empty key, then run generate --merge again` };
        insertion = { at: contentEnd(existing, ourParent), indent, collection: last.collection, pairs: [] };
      } else if (isMap(ourCollection) && !ourCollection.flow && ourCollection.items.length > 0) {
        const first = ourCollection.items[0]!.key as Node;
        insertion = { at: contentEnd(existing, ourCollection), indent: columnOf(existing, first.range?.[0] ?? 0), pairs: [] };
      } else {
        return { error: `line ${lineOf(existing, ourCollection.range?.[0] ?? 0)}: ${last.collection} is ${isSeq(ourCollection) ? 'a list' : 'a one-line mapping'}, which generate --merge does not add to; write it as a block mapping (one key a line), then run generate --merge again` };
      }
      insertions.set(place, insertion);
    }
    insertion.pairs.push(pair.clone() as Pair);
    added.push(b);
    addedPaths.add(pathOf(b.steps).join('\u0000'));
  }
  let text = existing.endsWith('\n') || existing === '' ? existing : `${existing}\n`;
  // from the end of the file; at one offset, the shallower first, so that the deeper (the end of a
  // nested collection, which ends where its parent does) stays before it
  for (const insertion of [...insertions.values()].sort((a, b) => b.at - a.at || a.indent - b.indent)) {
    const body = insertion.collection === undefined ? render(insertion.pairs, insertion.indent) : `${' '.repeat(insertion.indent)}${insertion.collection}:\n${render(insertion.pairs, insertion.indent + 2)}`;
    const at = Math.min(insertion.at, text.length);
    text = `${text.slice(0, at)}${body.endsWith('\n') ? body : `${body}\n`}${text.slice(at)}`;
  }
  return { text, added, notAdded };
}

/** The 1-based line of `offset`. */
function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}
