/**
 * Whether a live record is the object a create made, by the kind's `find` (src/kinds/descriptor.ts):
 * every identifying field equal to what was sent, `defaults` filling in what either side leaves
 * out, compared as text. Used by apply to find a create whose answer was lost, and by the plan to
 * count an interrupted apply's creates as the objects they made.
 */
import type { FindSpec } from './descriptor.js';

const same = (a: unknown, b: unknown): boolean => (a ?? null) === (b ?? null) || String(a ?? '') === String(b ?? '');

/** True when `record` has the identity `params` were sent with. */
export function matchesCreate(find: FindSpec, record: Readonly<Record<string, unknown>>, params: Readonly<Record<string, unknown>>): boolean {
  const defaults = find.defaults ?? {};
  return find.identity.every((f) => same(record[f] ?? defaults[f], params[f] ?? defaults[f]));
}
