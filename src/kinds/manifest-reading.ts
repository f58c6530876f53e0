/**
 * What a kind's own manifest readers are given. The manifest stage (src/manifest/resolve.ts)
 * reads every field a descriptor lists (`ManifestFields`: as written, ids, money, timestamps,
 * references); a kind whose entries hold more (a file to read and hash, media named inside a value,
 * an identity taken from what a list item names) reads that itself, in its own file here, through
 * an `EntryContext` the manifest stage makes for each file. So the manifest stage names no kind
 * and no kind's field (test/manifest/names-no-kind.test.ts).
 */
import type { RelatedLocation } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import type { YMap, YNode } from './entry-nodes.js';
import type { ResourceKind } from './kind.js';
import type { FileLimit, FileProblem, FileRead } from './local-file.js';

/** A resource's address as the manifest parses it (src/manifest/types.ts, `ResourceAddress`). */
interface EntryAddress {
  kind: ResourceKind;
  steps: ReadonlyArray<{ collection: string; key: string }>;
}

/** A reference by logical name inside a value (src/manifest/types.ts, `NamedReference`). */
interface EntryReference {
  $target: EntryAddress;
}

/** The resource an entry becomes, as far as a reader fills it in (src/manifest/types.ts, `DesiredResource`). */
export interface EntryResource {
  readonly address: EntryAddress;
  readonly source: SourceRange;
  attributes: Record<string, unknown>;
  attributeSources: Record<string, SourceRange>;
  references: Record<string, EntryAddress>;
  /** The existing object the entry names by id (bound, never created). */
  importId?: string;
  /** Set when `importId` comes from the entry's own `id` (a named object), not from an `import` entry. */
  namedById?: true;
}

/** The file an entry is read from, given by the manifest stage. */
export interface EntryContext {
  /** Records an error about the value at the JSON `pointer`, unless the schema already reported it. */
  report(pointer: string, code: string, message: string, range: SourceRange, related?: RelatedLocation[]): void;
  /** Where a node was written. */
  rangeOf(node: YNode): SourceRange;
  /** The file's text from offset `start` to `end` (a value exactly as written). */
  textOf(start: number, end: number): string;
  /**
   * A reference by logical name (the node's string, or `name`) to an entry of the top-level
   * `collection`; undefined, with an `unknown-reference` error at `node` naming `field`, when the
   * name is not defined there.
   */
  reference(node: YNode, pointer: string, collection: string, field: string, name?: string): EntryReference | undefined;
  /** The logical names of a top-level collection of the file. */
  names(collection: string): readonly string[];
  /** The attributes read so far of the resource at `address`, when the file declares it. */
  attributesOf(address: EntryAddress): Readonly<Record<string, unknown>> | undefined;
  /**
   * The bytes of a file the manifest names (relative to the manifest), read only when it is a
   * regular file inside the project root within `limit`; else why it was not read.
   */
  readFile(path: string, limit: FileLimit): FileRead;
  /**
   * Why a file the manifest names (relative to the manifest) would not be read — it does not
   * exist, lies outside the project root, is no regular file, or is over `limit` — or undefined
   * when it would; by its path alone, opening nothing.
   */
  checkFile(path: string, limit: FileLimit): FileProblem | undefined;
  /** A timestamp in UTC, or undefined when it is not ISO 8601 with seconds and a zone. */
  timestamp(text: string): string | undefined;
}

/** Reads the fields of an entry's map that the kind reads itself (its `special` fields), after the fields its descriptor lists. */
export type EntryReader = (ctx: EntryContext, resource: EntryResource, map: YMap, pointer: string) => void;

/**
 * The key of a list item whose identity is what it names (a post of the manifest, an uploaded
 * video) and the field its reference fills; undefined when the item has none (a problem was
 * reported); `default` when the item is keyed the ordinary way, by its address field's id.
 */
export type ItemIdentity = (ctx: EntryContext, item: YNode, pointer: string) => { key: string; target?: { field: string; address: EntryAddress } } | undefined | 'default';
