/**
 * The change of one resource the manifest wants: `create` when it is not bound (`new`) or its
 * object is gone (`deleted_outside`), else the comparison's `update`, `replace` or `noop`
 * (`import` when an import binds it, or binds a parent it is adopted under). Records the decision
 * so that references to the resource resolve, and reports replacing a protected resource,
 * importing an object that does not exist and binding one object to two resources.
 */
import { errorAt } from '../diag/diagnostic.js';
import type { DesiredResource } from '../manifest/types.js';
import { adoptChild } from './adopt.js';
import { bindResource, type Binding } from './binding.js';
import { compareResource } from './compare.js';
import { DEFAULT_CURRENCY, instrumentCurrency, recordCurrency } from './currency.js';
import { desiredValues } from './desired-values.js';
import { normaliseValue } from './normalise.js';
import { desiredIndex, holderKey, stateIndex, type DiffContext } from './diff-context.js';
import { preventDestroyError, isProtected } from './protection.js';
import { ignorableFields, KINDS, REFERABLE_KINDS } from '../kinds/registry.js';
import { ADOPTING_PARENTS } from '../kinds/adoption.js';
import type { KindDescriptor } from '../kinds/descriptor.js';
import { formatAddress } from '../manifest/address.js';
import type { Action, AttributeChange, ResourceChange } from './types.js';

const NONE: ReadonlySet<string> = new Set();

/** The API fields named by `lifecycle.ignore_changes` entries (short money and reference names mapped). */
function ignoredFields(descriptor: KindDescriptor, names: readonly string[]): ReadonlySet<string> {
  if (names.length === 0) return NONE;
  const known = ignorableFields(descriptor);
  return new Set(names.map((name) => known.get(name) ?? name));
}

function bindingRange(resource: DesiredResource): DesiredResource['source'] {
  return resource.attributeSources['import'] ?? resource.source;
}

/** The desired resource other than the one at `text` that already holds the object `key`, if any. */
function otherHolder(ctx: DiffContext, key: string, text: string, id: string): string | undefined {
  const imported = ctx.imports.get(key);
  if (imported !== undefined) return imported;
  const bound = stateIndex(ctx).get(key);
  if (bound === undefined || bound === text) return undefined;
  const holder = desiredIndex(ctx).get(bound);
  return holder !== undefined && (holder.importId === undefined || holder.importId === id) ? bound : undefined;
}

function checkImport(ctx: DiffContext, resource: DesiredResource, text: string, id: string): void {
  const key = holderKey(resource.kind, id);
  const other = otherHolder(ctx, key, text, id);
  if (other === undefined) {
    ctx.imports.set(key, text);
    return;
  }
  ctx.diagnostics.push(
    errorAt('duplicate-binding', `${text} and ${other} are both bound to ${resource.kind.replace(/_/g, ' ')} ${id}; one object can back one resource (use adsctl state mv to move a binding)`, bindingRange(resource)),
  );
}

function currencyOf(ctx: DiffContext, resource: DesiredResource, text: string, after: Record<string, unknown>, record: Binding['record']): string {
  const { live } = ctx.input;
  if (KINDS[resource.kind].currency === 'instrument') {
    const currency = instrumentCurrency(after['funding_instrument_id'], live, () => desiredIndex(ctx)) ?? recordCurrency(record, live) ?? DEFAULT_CURRENCY;
    ctx.campaignCurrencies.set(text, currency);
    return currency;
  }
  const parent = resource.parent === undefined ? undefined : ctx.campaignCurrencies.get(formatAddress(resource.parent));
  return parent ?? recordCurrency(record, live) ?? DEFAULT_CURRENCY;
}

/** A replacement starts from nothing: fields to unset are left out of its values and changes. */
function withoutUnset(after: Record<string, unknown>, changes: AttributeChange[], unset: readonly string[]): AttributeChange[] {
  for (const field of unset) delete after[field];
  return changes.filter((c) => !unset.includes(c.path));
}

/**
 * A replacement is created from nothing, so the updatable fields the manifest leaves to the
 * service would take the API's defaults; they keep the old object's values instead, and the plan
 * shows them. The serving status is not among them when the state recorded it: it is watched at
 * the value last applied (desired-values.ts).
 */
function keepServiceValues(descriptor: KindDescriptor, after: Record<string, unknown>, record: Readonly<Record<string, unknown>>): void {
  for (const rule of descriptor.attributes) {
    if (rule.change !== 'update' || rule.fallback === undefined || Object.hasOwn(after, rule.field) || !Object.hasOwn(record, rule.field)) continue;
    const value = normaliseValue(rule.shape, record[rule.field]);
    if (value !== null && value !== undefined) after[rule.field] = value;
  }
}

function decide(ctx: DiffContext, resource: DesiredResource, text: string, action: Action, id: string | undefined): void {
  if (REFERABLE_KINDS.has(resource.kind)) ctx.decisions.set(text, { action, id });
}

/** Binds `resource`: its state entry or import, else, under a parent whose children are adopted, the live child with its identity. */
function bind(ctx: DiffContext, resource: DesiredResource, text: string): Binding {
  const { input } = ctx;
  const binding = bindResource(resource, text, input.state, input.live, input.desired.accountId);
  if (binding.source !== 'none' || ctx.adopting.size === 0) return binding;
  const adopted = adoptChild(ctx, resource, text);
  return adopted === undefined ? binding : { source: 'import', id: adopted.id, stateEntry: undefined, record: adopted.record };
}

/**
 * A bound object that an import names, or that sits under one (adopted, or bound in state): the
 * children the manifest declares under it are adopted too, whichever order they were imported in.
 */
function adoptsChildren(ctx: DiffContext, resource: DesiredResource, text: string, id: string): void {
  if (!ADOPTING_PARENTS.has(resource.kind)) return;
  if (resource.importId !== undefined || (resource.parent !== undefined && ctx.adopting.has(formatAddress(resource.parent)))) ctx.adopting.set(text, id);
}

/**
 * Whether an import binding is an import the plan counts: an `import` entry's, or an object
 * adopted (a child under an imported parent, a feature the account already has). The account,
 * funding instruments and media library items the manifest names by `id` (`namedById`) are named
 * objects, not imports.
 */
function importsObject(resource: DesiredResource): boolean {
  return resource.namedById !== true;
}

/** Decides the change of the desired `resource`, whose address text is `text`. */
export function desiredChange(ctx: DiffContext, resource: DesiredResource, text: string): ResourceChange {
  const { input } = ctx;
  const descriptor = KINDS[resource.kind];
  const binding = bind(ctx, resource, text);
  const applied = binding.source === 'state' && binding.record !== undefined ? binding.stateEntry?.applied : undefined;
  // a serving object adsctl created paused and still owes its activation wants its default status
  const owed = binding.stateEntry?.held === true ? descriptor.serving?.field : undefined;
  const { after, managed, defaulted, unset, referenced } = desiredValues(resource, descriptor, ctx.resolve, applied, binding.record !== undefined, owed);
  const protectedFlag = isProtected(resource, binding.stateEntry);
  const change: ResourceChange = {
    account: input.desired.key,
    address: resource.address,
    kind: resource.kind,
    action: 'create',
    before: null,
    after,
    changes: [],
    drift: false,
    protected: protectedFlag,
    source: resource.source,
  };
  if (binding.stateEntry !== undefined) ctx.matchedState++;
  const { id, record } = binding;
  if (id === undefined || record === undefined) {
    change.reason = binding.source === 'state' ? 'deleted_outside' : 'new';
    change.drift = binding.source === 'state';
    if (binding.source === 'import' && id !== undefined) {
      ctx.diagnostics.push(
        errorAt('import-not-found', `${text} is to be bound to ${resource.kind.replace(/_/g, ' ')} ${id}, which the service does not have (deleted, or in another account)`, bindingRange(resource)),
      );
    }
    decide(ctx, resource, text, 'create', undefined);
  } else {
    if (binding.source === 'import') checkImport(ctx, resource, text, id);
    const comparison = compareResource({
      managed,
      after,
      defaulted,
      record,
      applied,
      referenced,
      ...(descriptor.parentField === undefined ? {} : { parentField: descriptor.parentField }),
      ignored: ignoredFields(descriptor, resource.lifecycle.ignoreChanges),
      readOnly: descriptor.readOnlyWhenImported === true && resource.importId !== undefined,
    });
    change.action = comparison.action;
    change.id = id;
    change.before = comparison.before;
    change.changes = comparison.action === 'replace' && unset.length > 0 ? withoutUnset(after, comparison.changes, unset) : comparison.changes;
    if (comparison.action === 'replace') keepServiceValues(descriptor, after, record);
    change.drift = comparison.drift;
    const reason = comparison.reason ?? (binding.source === 'import' && importsObject(resource) ? 'import' : undefined);
    if (reason !== undefined) change.reason = reason;
    if (comparison.action === 'replace' && protectedFlag) ctx.diagnostics.push(preventDestroyError(text, 'replace', resource));
    decide(ctx, resource, text, comparison.action, id);
    adoptsChildren(ctx, resource, text, id);
  }
  if (descriptor.currency !== undefined) change.currency = currencyOf(ctx, resource, text, after, record);
  return change;
}
