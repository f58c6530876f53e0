/**
 * The values of a live object in the form state records as applied: each attribute the kind's
 * descriptor compares, normalised, as the live record has it (or, for a write-only attribute the
 * record leaves out, as last applied). An import records these, so the next plan shows only real
 * differences; a delete shows them as what goes away.
 */
import { KINDS } from '../kinds/registry.js';
import type { ResourceKind } from '../manifest/types.js';
import { normaliseValue } from './normalise.js';

/**
 * The attribute values of `record` (a live object of `kind`), falling back to `applied` for fields
 * it leaves out; only the fields in `only` when given (an import records what the manifest sets,
 * so that fields it leaves to the service are not taken for values adsctl applied).
 */
export function appliedValues(kind: ResourceKind, record: Readonly<Record<string, unknown>>, applied: Readonly<Record<string, unknown>> = {}, only?: ReadonlySet<string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const rule of KINDS[kind].attributes) {
    if (only !== undefined && !only.has(rule.field)) continue;
    if (Object.hasOwn(record, rule.field)) values[rule.field] = normaliseValue(rule.shape, record[rule.field]);
    else if (Object.hasOwn(applied, rule.field)) values[rule.field] = normaliseValue(rule.shape, applied[rule.field]);
  }
  return values;
}
