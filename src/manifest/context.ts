/**
 * The state shared while one manifest file becomes an account's resources: the document, the
 * resources made so far by address, the diagnostics, and the values the schema already found
 * invalid (later checks stay quiet about those, so one mistake is reported once).
 */
import { errorAt, type Diagnostic, type RelatedLocation } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import type { FileLimit, FileProblem, FileRead } from '../kinds/local-file.js';
import { formatAddress } from './address.js';
import type { DesiredResource, ImportEntry, ResourceAddress } from './types.js';
import type { ManifestDocument, YNode } from './yaml-tree.js';

/** An explicit `depends_on` entry, kept until every address of the file is known. */
interface PendingDependency {
  resource: DesiredResource;
  address: ResourceAddress;
  range: SourceRange;
  pointer: string;
}

/** Everything the resolution of one file reads and writes. */
export interface FileContext {
  doc: ManifestDocument;
  invalid: ReadonlySet<string>;
  diagnostics: Diagnostic[];
  /**
   * Why the file the manifest names at `path` (as the process opens it; `shownAs` as written)
   * would not be read, by its path alone (a member file), or undefined when it would.
   */
  checkFile: (path: string, shownAs: string, limit: FileLimit) => FileProblem | undefined;
  /** The bytes of a file the manifest names (a media file), or why they were not read. */
  readFile: (path: string, shownAs: string, limit: FileLimit) => FileRead;
  resources: DesiredResource[];
  byAddress: Map<string, DesiredResource>;
  dependencies: PendingDependency[];
  /** The `import` entries that bind a resource, in file order. */
  importEntries: ImportEntry[];
  /** Logical names of each top-level collection, for references by name. */
  names: ReadonlyMap<string, readonly string[]>;
  endpoint: string | undefined;
}

/** True when the schema already reported the value at `pointer` or a value containing it. */
function isSuppressed(invalid: ReadonlySet<string>, pointer: string): boolean {
  if (invalid.size === 0) return false;
  let p = pointer;
  for (;;) {
    if (invalid.has(p)) return true;
    if (p === '') return false;
    p = p.slice(0, p.lastIndexOf('/'));
  }
}

/** Records an error about the value at `pointer`, unless the schema already reported that value. */
export function report(ctx: FileContext, pointer: string, code: string, message: string, range: SourceRange, related?: RelatedLocation[]): void {
  if (!isSuppressed(ctx.invalid, pointer)) ctx.diagnostics.push(errorAt(code, message, range, related));
}

/** The source range of a node of this file. */
export function rangeOf(ctx: FileContext, node: YNode): SourceRange {
  return ctx.doc.range(node.start, node.end);
}

/** `rangeOf` in the compact form, for the ranges a desired resource keeps (`attributeSources`). */
export function sourceOf(ctx: FileContext, node: YNode): SourceRange {
  return ctx.doc.compactRange(node.start, node.end);
}

/** The resource at an address, if this file declares it. */
export function findResource(ctx: FileContext, address: ResourceAddress): DesiredResource | undefined {
  return ctx.byAddress.get(formatAddress(address));
}
