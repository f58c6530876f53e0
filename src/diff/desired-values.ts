/**
 * The values a desired resource asks for, in the form the diff compares: each rule field the
 * manifest writes (references resolved to ids or `UnknownRef`s) or the API defaults, normalised,
 * in rule order. An updatable field without an API default that adsctl applied before and the
 * manifest no longer sets is asked to be unset (null), as Terraform does with a removed optional
 * argument — but for a field the service cannot unset (`kept`: an account's name), which then
 * keeps its live value; a field the manifest never set and the API does not default is not managed.
 * Attributes no rule names (an audience's users file) are not API fields and are left out. The
 * serving status of a bound campaign or line item (its descriptor's `serving.field`) is always
 * watched: left out of the manifest, it is as last applied or adopted, so a pause or an activation
 * made by hand is drift the next apply undoes.
 */
import { holdsNamedReference, isNamedReference, type DesiredResource, type ResourceAddress } from '../manifest/types.js';
import type { FieldRule } from '../kinds/attribute.js';
import type { KindDescriptor } from '../kinds/descriptor.js';
import { normaliseValue } from './normalise.js';

/**
 * Resolves a reference: the referenced resource's bound id (after `rule.idPrefix` when the rule
 * has one), or an `UnknownRef` when that resource is yet to be created or replaced.
 */
export type ReferenceResolver = (target: ResourceAddress, rule: FieldRule) => unknown;

/** What `desiredValues` computes. */
interface DesiredValues {
  /** The desired managed attributes (see the file comment). */
  after: Record<string, unknown>;
  /** The rules of the fields in `after`, in the same order. */
  managed: readonly FieldRule[];
  /** Rule fields whose value is the API's default rather than written in the manifest. */
  defaulted: readonly string[];
  /** Rule fields asked to be unset because the manifest stopped setting them. */
  unset: readonly string[];
  /** Rule fields whose value names other resources of the manifest (compared even when identity). */
  referenced: readonly string[];
}

/** `value` with every `NamedReference` in it resolved. */
function resolveNested(value: unknown, rule: FieldRule, resolve: ReferenceResolver): unknown {
  if (isNamedReference(value)) return resolve(value.$target, rule);
  if (Array.isArray(value)) return value.map((v) => resolveNested(v, rule, resolve));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveNested(v, rule, resolve)]));
  return value;
}

const NONE: readonly string[] = [];

/**
 * The desired values of `resource` under its kind's attributes; `applied` holds the values last
 * applied, when the state has them. `exists`: the resource is bound to a live object, whose
 * fields the manifest leaves out are the service's (docs/manifest.md): the API's defaults then
 * fill in only what the address fixes (a targeting criterion's operator), never an updatable
 * field — but for the serving status, which stays as last applied or adopted. `owed`: the
 * field whose default is still owed (the status of an object adsctl created paused and has not
 * activated yet), filled in as for a create.
 */
export function desiredValues(
  resource: DesiredResource,
  descriptor: KindDescriptor,
  resolve: ReferenceResolver,
  applied: Readonly<Record<string, unknown>> | undefined,
  exists = false,
  owed?: string,
): DesiredValues {
  const after: Record<string, unknown> = {};
  const managed: FieldRule[] = [];
  let defaulted: string[] | undefined;
  let unset: string[] | undefined;
  let referenced: string[] | undefined;
  const { attributes, references } = resource;
  for (const rule of descriptor.attributes) {
    const { field } = rule;
    let value: unknown = attributes[field];
    if (value !== undefined && holdsNamedReference(value)) {
      value = resolveNested(value, rule, resolve);
      (referenced ??= []).push(field);
    }
    if (value === undefined) {
      const target = references[field];
      if (target !== undefined) {
        value = resolve(target, rule);
        (referenced ??= []).push(field);
      } else if (rule.fallback !== undefined && (!(exists && rule.change === 'update') || field === owed)) {
        value = rule.fallback(after);
        if (value !== undefined) (defaulted ??= []).push(field);
      }
      // the serving status, left out, is watched at the value last applied or adopted
      if (value === undefined && exists && field === descriptor.serving?.field && typeof applied?.[field] === 'string') value = applied[field];
      if (value === undefined && rule.fallback === undefined && rule.change === 'update' && rule.kept !== true && applied !== undefined && Object.hasOwn(applied, field)) {
        value = null;
        (unset ??= []).push(field);
      }
    }
    if (value === undefined) continue;
    after[field] = normaliseValue(rule.shape, value);
    managed.push(rule);
  }
  return { after, managed, defaulted: defaulted ?? NONE, unset: unset ?? NONE, referenced: referenced ?? NONE };
}
