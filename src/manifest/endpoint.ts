/**
 * The `endpoint` a manifest names: `local`, `sandbox`, `production`, or the URL of an emulator,
 * `http(s)://host[:port]` (with credentials at most), or the `ads_base_url` or
 * `ads_sandbox_base_url` it prints (`/ads-api`, `/ads-api-sandbox`). The schema's pattern
 * refuses most other text; this check refuses what only a URL parser can tell (an unclosed IPv6
 * bracket, an IPv4 address with a part above 255, a port above 65535), so a manifest that passes
 * `validate` never has its endpoint refused later by plan, far from where it was written.
 */
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import { quoteValue } from '../diag/quote.js';
import { redactUserinfo } from '../diag/redact.js';
import type { ManifestDocument, YMap } from './yaml-tree.js';
import { stringValue } from './nodes.js';

const NAMED = new Set(['local', 'sandbox', 'production']);
const URL_FORM = /^https?:\/\/[^/?#\s]+(\/ads-api(-sandbox)?)?\/*$/;

/**
 * Why `value` is not an endpoint adsctl can use, or undefined when it is one. The message quotes
 * the value with any password replaced by `***`.
 */
export function endpointProblem(value: string): string | undefined {
  if (NAMED.has(value)) return undefined;
  const shown = quoteValue(redactUserinfo(value));
  if (!URL_FORM.test(value)) return `endpoint ${shown} is not local, sandbox, production or an emulator's http(s)://host:port URL`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `endpoint ${shown} is not a valid URL: check the host, the brackets around an IPv6 address and the port`;
  }
  if (url.hostname === '') return `endpoint ${shown} is not a valid URL: it names no host`;
  return undefined;
}

/**
 * The endpoint the manifest's root map names, when the schema found it valid and it passes
 * `endpointProblem`; otherwise undefined, with the problem added to `diagnostics` at the value.
 */
export function readEndpoint(doc: ManifestDocument, root: YMap, invalid: ReadonlySet<string>, diagnostics: Diagnostic[]): string | undefined {
  const node = root.byKey.get('endpoint')?.value;
  const value = invalid.has('/endpoint') ? undefined : stringValue(node);
  if (value === undefined || node === undefined) return undefined;
  const problem = endpointProblem(value);
  if (problem === undefined) return value;
  diagnostics.push(errorAt('schema-pattern', problem, doc.range(node.start, node.end)));
  return undefined;
}
