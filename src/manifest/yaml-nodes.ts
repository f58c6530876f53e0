/**
 * The positioned tree a manifest is read into (yaml-tree.ts with yaml, yaml-fast.ts without).
 * Its types live in src/kinds/entry-nodes.ts, where the kinds' manifest readers read it too.
 */
export type { YEntry, YMap, YNode, YScalar, YSeq } from '../kinds/entry-nodes.js';
