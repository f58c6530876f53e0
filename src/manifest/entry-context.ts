/**
 * The `EntryContext` (src/kinds/manifest-reading.ts) the kinds' own manifest readers read one file
 * through: its diagnostics, positions and text, references by logical name checked against the
 * file's collections, the resources it declared so far, and the files it names, relative to it.
 */
import { dirname, isAbsolute, join } from 'node:path';
import { quoteValue } from '../diag/quote.js';
import { didYouMean } from '../diag/suggest.js';
import type { EntryContext } from '../kinds/manifest-reading.js';
import { ACCOUNT_ADDRESS, childAddress } from './address.js';
import { findResource, rangeOf, report, type FileContext } from './context.js';
import { stringValue } from './nodes.js';
import { normaliseTimestamp } from './time.js';
import type { NamedReference, ResourceAddress } from './types.js';
import type { YNode } from './yaml-tree.js';

/** The path of a file the manifest names, as the process opens it. */
function manifestRelative(ctx: FileContext, path: string): string {
  return isAbsolute(path) ? path : join(dirname(ctx.doc.file), path);
}

/**
 * A reference by logical name (the node's string, or `name`) to an entry of the top-level
 * `collection`, checked; undefined (and an error at `node`) when the name is not defined there.
 */
function namedReference(ctx: FileContext, node: YNode, pointer: string, collection: string, field: string, name = stringValue(node)): NamedReference | undefined {
  if (name === undefined) return undefined;
  const known = ctx.names.get(collection) ?? [];
  if (!known.includes(name)) {
    const where = known.length === 0 ? `this manifest has no ${collection}` : `it is not defined under ${collection}${didYouMean(name, known)}`;
    report(ctx, pointer, 'unknown-reference', `${field} ${quoteValue(name)} does not exist: ${where}`, rangeOf(ctx, node));
    return undefined;
  }
  return { $target: childAddress(ACCOUNT_ADDRESS, collection, name) };
}

/** The context the kinds' readers read the file of `ctx` through. */
export function entryContext(ctx: FileContext): EntryContext {
  return {
    report: (pointer, code, message, range, related) => report(ctx, pointer, code, message, range, related),
    rangeOf: (node) => rangeOf(ctx, node),
    textOf: (start, end) => ctx.doc.text.slice(start, end),
    reference: (node, pointer, collection, field, name) => namedReference(ctx, node, pointer, collection, field, name),
    names: (collection) => ctx.names.get(collection) ?? [],
    // addresses come from the manifest stage itself: a reader only hands back what it was given
    attributesOf: (address) => findResource(ctx, address as ResourceAddress)?.attributes,
    readFile: (path, limit) => ctx.readFile(manifestRelative(ctx, path), path, limit),
    checkFile: (path, limit) => ctx.checkFile(manifestRelative(ctx, path), path, limit),
    timestamp: normaliseTimestamp,
  };
}
