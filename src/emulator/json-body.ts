/**
 * Parsing of JSON request bodies with a bound on nesting. `JSON.parse` itself copes with deep
 * nesting, but every later step that walks the value (batch items, card components, echoes)
 * recurses, so a body nested thousands of levels deep is refused as a bad request before it is
 * parsed, in one linear scan that never recurses.
 */

/** The deepest nesting of arrays and objects a body may have; real bodies need fewer than ten. */
const MAX_JSON_DEPTH = 64;

type JsonBody = { ok: true; value: unknown } | { ok: false; message: string };

/** The deepest nesting of `[` and `{` outside strings, stopping early once past `limit`. */
function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Parses `text` as JSON; refuses invalid JSON and nesting deeper than `MAX_JSON_DEPTH`. */
export function parseJsonBody(text: string): JsonBody {
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return { ok: false, message: `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: 'The request body is not valid JSON' };
  }
}
