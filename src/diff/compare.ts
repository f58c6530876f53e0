/**
 * The comparison of one bound, live resource: desired values against the live record, field by
 * field under the kind's rules, each difference told apart by origin — `drift` when the live
 * value moved away from what adsctl last applied, `manifest` otherwise — and marked when the
 * API cannot update the field, which makes the resource a replacement.
 */
import type { FieldRule } from '../kinds/attribute.js';
import { valuesEqual } from './equality.js';
import { normaliseValue } from './normalise.js';
import type { AttributeChange, ChangeReason, Origin } from './types.js';
import { isUnknownRef } from './types.js';

/** Everything the comparison of one resource reads. */
interface CompareInput {
  /** The rules of the fields of `after`, in its order. */
  managed: readonly FieldRule[];
  /** Desired values (desired-values.ts), `after` of the change; ignored fields are overwritten with the live value. */
  after: Record<string, unknown>;
  /** Rule fields whose desired value is the API's default. */
  defaulted: readonly string[];
  record: Readonly<Record<string, unknown>>;
  /** Values last applied (state), when the resource is in state. */
  applied: Readonly<Record<string, unknown>> | undefined;
  /** Fields whose value names another resource of the manifest: compared even when they are identity. */
  referenced: readonly string[];
  /** The field naming the resource's parent, whose replacement replaces it (`replace_parent`). */
  parentField?: string;
  /** Fields removed from comparison by `ignore_changes`. */
  ignored: ReadonlySet<string>;
  /** Compare nothing: the object is only referenced (an instrument named by id). */
  readOnly: boolean;
}

/** The outcome: the action, the live values of the managed fields, and the differences. */
interface Comparison {
  action: 'update' | 'replace' | 'noop';
  before: Record<string, unknown>;
  changes: AttributeChange[];
  /** Some difference has origin `drift`. */
  drift: boolean;
  reason?: Extract<ChangeReason, 'replace_field' | 'replace_parent'>;
}

/**
 * `drift` when the live value differs from the applied one, or, for a field the manifest leaves
 * to the API's default and the state never recorded, when the live value differs at all.
 */
function originOf(input: CompareInput, rule: FieldRule, live: unknown): Origin {
  const { applied } = input;
  if (applied === undefined) return 'manifest';
  if (Object.hasOwn(applied, rule.field)) return valuesEqual(rule.shape, normaliseValue(rule.shape, applied[rule.field]), live) ? 'manifest' : 'drift';
  return input.defaulted.includes(rule.field) ? 'drift' : 'manifest';
}

/** Records on a drift change the applied value when the manifest moved away from it as well. */
function withApplied(change: AttributeChange, rule: FieldRule, applied: CompareInput['applied']): void {
  if (applied === undefined || !Object.hasOwn(applied, rule.field)) return;
  const value = normaliseValue(rule.shape, applied[rule.field]);
  if (!valuesEqual(rule.shape, value, change.after)) change.applied = value;
}

/**
 * Compares `input.after` with `input.record`. A field the record does not carry at all (the API
 * does not answer it) is compared with its applied value instead. Identity fields are shown,
 * never compared — unless their value names a resource of the manifest (a promoted post of
 * `posts.launch`), whose id is then what the object must carry.
 */
export function compareResource(input: CompareInput): Comparison {
  const { managed, after, record, applied } = input;
  const before: Record<string, unknown> = {};
  const changes: AttributeChange[] = [];
  let drift = false;
  let forcing = 0;
  let forcingByReference = 0;
  for (const rule of managed) {
    const { field, shape } = rule;
    let raw = record[field];
    if (raw === undefined && !Object.hasOwn(record, field)) raw = applied?.[field];
    const live = normaliseValue(shape, raw);
    before[field] = live;
    if (input.readOnly || rule.informational === true || (rule.identity === true && !input.referenced.includes(field))) continue;
    if (input.ignored.has(field)) {
      after[field] = live;
      continue;
    }
    const desired = after[field];
    if (valuesEqual(shape, desired, live)) continue;
    if (rule.equivalent?.(desired, live, record) === true) continue;
    const forces = rule.change === 'replace';
    const origin = originOf(input, rule, live);
    if (origin === 'drift') drift = true;
    const change: AttributeChange = { path: field, before: live, after: desired, origin, forcesReplacement: forces };
    if (origin === 'drift') withApplied(change, rule, applied);
    changes.push(change);
    if (forces) {
      forcing++;
      if (isUnknownRef(desired) && field === input.parentField) forcingByReference++;
    }
  }
  if (forcing > 0) return { action: 'replace', before, changes, drift, reason: forcing === forcingByReference ? 'replace_parent' : 'replace_field' };
  return { action: changes.length > 0 ? 'update' : 'noop', before, changes, drift };
}
