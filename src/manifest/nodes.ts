/**
 * Reading the positioned YAML tree: JSON pointers into it, plain JSON values out of it (for the
 * schema validator and for attributes; the accessors are src/kinds/entry-nodes.ts's, shared with
 * the kinds' readers), and the locator that maps a pointer back to the source.
 */
import type { InstanceLocator } from '../schema/validator.js';
import type { ManifestDocument, YNode } from './yaml-tree.js';

export { asMap, asScalar, asSeq, childPointer, idValue, plainValue, stringValue } from '../kinds/entry-nodes.js';

function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function walk(root: YNode | undefined, pointer: string): { node: YNode; keyRange?: [number, number] } | undefined {
  if (root === undefined) return undefined;
  let node: YNode = root;
  let keyRange: [number, number] | undefined;
  if (pointer === '') return { node };
  for (const raw of pointer.slice(1).split('/')) {
    const segment = unescapeSegment(raw);
    if (node.kind === 'map') {
      const entry = node.byKey.get(segment);
      if (entry === undefined) return undefined;
      node = entry.value;
      keyRange = [entry.keyStart, entry.keyEnd];
    } else if (node.kind === 'seq') {
      const item = node.items[Number(segment)];
      if (!/^\d+$/.test(segment) || item === undefined) return undefined;
      node = item;
      keyRange = undefined;
    } else {
      return undefined;
    }
  }
  return keyRange === undefined ? { node } : { node, keyRange };
}

/** Maps JSON pointers of a document's plain value back to its source. */
export function documentLocator(doc: ManifestDocument): InstanceLocator {
  return {
    value(pointer) {
      const found = walk(doc.root, pointer);
      return found === undefined ? undefined : doc.range(found.node.start, found.node.end);
    },
    key(pointer) {
      const found = walk(doc.root, pointer);
      return found?.keyRange === undefined ? undefined : doc.range(found.keyRange[0], found.keyRange[1]);
    },
  };
}
