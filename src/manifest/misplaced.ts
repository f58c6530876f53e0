/**
 * A child collection indented one level too little: `line_items:` written among the campaigns
 * reads as a campaign named "line_items", and the schema and the readers then report that
 * campaign's missing name, its missing funding instrument and its unknown field for each line
 * item. One error at the key says what happened instead, and the others within it are dropped.
 */
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import { COLLECTIONS, KINDS, ROOT_KIND } from '../kinds/registry.js';
import type { ResourceKind } from '../kinds/kind.js';
import { asMap, childPointer } from './nodes.js';
import type { YMap } from './yaml-nodes.js';

/** A misplaced collection: where it is, and the diagnostic that replaces those within it. */
interface Misplaced {
  pointer: string;
  start: number;
  end: number;
  diagnostic: Diagnostic;
}

/**
 * The collections of `root` written as entries of their parent's collection, among the entries
 * `reported` (the schema's diagnostics) found wrong: an entry that is a valid object of its own
 * under a child collection's name is left alone.
 */
export function findMisplacedCollections(root: YMap, reported: readonly Diagnostic[], range: (start: number, end: number) => SourceRange): Misplaced[] {
  const found: Misplaced[] = [];
  const faulty = (start: number, end: number): boolean => reported.some((d) => d.range !== undefined && d.range.start.offset >= start && d.range.start.offset < end);
  const walk = (map: YMap | undefined, kind: ResourceKind, collection: string, pointer: string): void => {
    if (map === undefined) return;
    const children = COLLECTIONS.get(kind) ?? new Map<string, ResourceKind>();
    map.entries.forEach((entry, i) => {
      const at = childPointer(pointer, entry.key);
      if (children.has(entry.key) && faulty(entry.keyStart, entry.value.end)) {
        const noun = KINDS[kind].noun;
        const above = map.entries[i - 1]?.key;
        const where = above === undefined ? `under one of the ${collection}` : `under the ${noun} ${JSON.stringify(above)} above it (two more spaces)`;
        found.push({
          pointer: at,
          start: entry.keyStart,
          end: entry.value.end,
          diagnostic: errorAt('misplaced-collection', `${entry.key} is indented as one of the ${collection}, so it reads as a ${noun} named ${JSON.stringify(entry.key)}; indent it ${where} to declare that ${noun}'s ${entry.key}`, range(entry.keyStart, entry.keyEnd)),
        });
        return;
      }
      const fields = asMap(entry.value);
      for (const [child, childKind] of children) walk(asMap(fields?.byKey.get(child)?.value), childKind, child, childPointer(at, child));
    });
  };
  for (const [collection, kind] of COLLECTIONS.get(ROOT_KIND.kind) ?? []) walk(asMap(root.byKey.get(collection)?.value), kind, collection, `/${collection}`);
  return found;
}
