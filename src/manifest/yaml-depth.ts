/**
 * The nesting limit of manifests. yaml composes documents, and adsctl reads them, by recursion,
 * so a document nested a few thousand levels deep would overflow the stack somewhere arbitrary.
 * The nesting is measured on yaml's token tree, which its parser builds without recursion,
 * before anything recursive runs; the depth that aliases add is checked while the tree is read
 * (yaml-tree.ts). A real manifest nests fewer than ten levels.
 */
import type { CST, Document, LineCounter } from 'yaml';
import { yaml } from '../yaml/yaml.js';

/** The most maps and lists that may be nested in one another, the document's root included. */
export const NESTING_LIMIT = 64;

const REASON = 'a manifest needs far fewer levels, so deeper nesting is refused';

/** The message of `yaml-too-deep` for nesting written out. */
export const TOO_DEEP_MESSAGE = `maps and lists are nested more than ${NESTING_LIMIT} levels deep here; ${REASON}`;

/** The message of `yaml-too-deep` for an alias that would put its anchor's contents too deep. */
export function tooDeepAliasMessage(anchor: string): string {
  return `alias *${anchor} nests maps and lists more than ${NESTING_LIMIT} levels deep here; ${REASON}`;
}

/** A document the limit allows, or where the first map or list beyond the limit starts and ends. */
type BoundedDocument = { doc: Document.Parsed; tooDeep?: undefined } | { doc?: undefined; tooDeep: [number, number] };

function isCollection(token: CST.Token): token is CST.BlockMap | CST.BlockSequence | CST.FlowCollection {
  return token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection';
}

/** Where a collection token is shown: its first key for a block map, else its opening `[`, `{` or `-`. */
function spanOf(token: CST.BlockMap | CST.BlockSequence | CST.FlowCollection): [number, number] {
  const key = token.type === 'block-map' ? token.items[0]?.key : undefined;
  if (key !== undefined && key !== null && 'source' in key && key.source.length > 0) return [key.offset, key.offset + key.source.length];
  return [token.offset, token.offset + 1];
}

/** The first collection (in source order) nested deeper than the limit, walked with an explicit stack. */
function firstTooDeep(tokens: readonly CST.Token[]): [number, number] | undefined {
  const stack: Array<{ token: CST.Token; depth: number }> = [];
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i];
    if (token?.type === 'document' && token.value !== undefined) stack.push({ token: token.value, depth: 0 });
  }
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { token, depth } = next;
    if (!isCollection(token)) continue;
    if (depth + 1 > NESTING_LIMIT) return spanOf(token);
    const children: CST.Token[] = [];
    for (const item of token.items) {
      if (item.key !== undefined && item.key !== null) children.push(item.key);
      if (item.value !== undefined) children.push(item.value);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push({ token: children[i] as CST.Token, depth: depth + 1 });
  }
  return undefined;
}

/**
 * Parses the first YAML document of `text` as yaml's `parseDocument` does (a second document is
 * a `MULTIPLE_DOCS` error), unless maps and lists nest beyond the limit: then nothing is composed.
 */
export function parseBoundedDocument(text: string, lineCounter: LineCounter, options: { merge: boolean; uniqueKeys: boolean }): BoundedDocument {
  const tokens = Array.from(new (yaml().Parser)(lineCounter.addNewLine).parse(text));
  const tooDeep = firstTooDeep(tokens);
  if (tooDeep !== undefined) return { tooDeep };
  const composer = new (yaml().Composer)({ ...options, prettyErrors: false });
  let first: Document.Parsed | undefined;
  for (const doc of composer.compose(tokens, true, text.length)) {
    if (first === undefined) {
      first = doc;
      continue;
    }
    first.errors.push(new (yaml().YAMLParseError)([doc.range[0], doc.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
    break;
  }
  if (first === undefined) throw new Error('yaml composed no document although one was forced');
  return { doc: first };
}
