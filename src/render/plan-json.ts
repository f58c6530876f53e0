/**
 * The JSON plan document as `JSON.stringify(document, null, 2)` writes it, one resource change at
 * a time: `plan --json` of 100,000 resources then never holds the document of every change, nor
 * its whole text. The bytes are the same (the golden tests hold them together).
 */
import type { PlanDocumentStream } from './document-types.js';

const MARK = '\n  "resource_changes": []';

/** Indents the JSON of one element of `resource_changes` to its depth (JSON strings hold no raw newline). */
function element(value: unknown): string {
  return `    ${JSON.stringify(value, null, 2).replace(/\n/g, '\n    ')}`;
}

/**
 * The lines of the document, each to be followed by a newline: the head with `resource_changes`
 * opened, one line per change (its JSON, indented, with its comma), then the rest.
 */
export function* jsonPieces(stream: PlanDocumentStream): Generator<string> {
  const { format_version, mode, serving_without_creative, accounts, ...rest } = stream.head;
  const first = serving_without_creative === undefined ? {} : { serving_without_creative };
  const head = JSON.stringify({ format_version, mode, ...first, accounts, resource_changes: [], ...rest }, null, 2);
  const total = stream.accounts.reduce((n, a) => n + a.facts.length, 0);
  if (total === 0) {
    yield head;
    return;
  }
  const at = head.indexOf(MARK);
  if (at < 0) throw new Error('the plan document has no resource_changes member');
  yield `${head.slice(0, at)}\n  "resource_changes": [`;
  let i = 0;
  for (const account of stream.accounts) {
    for (const change of account.changes()) {
      i += 1;
      yield i < total ? `${element(change)},` : element(change);
    }
  }
  yield `  ]${head.slice(at + MARK.length)}`;
}
