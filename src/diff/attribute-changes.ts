/**
 * The attribute changes of a change as the plan lists them. A create keeps none of its own: every
 * attribute of its `after` is set from the manifest, so they are derived when a renderer asks, not
 * held beside `after` for the whole run (at 100,000 creates, half a million objects the apply would
 * carry from the diff to the end).
 */
import type { AttributeChange, ResourceChange } from './types.js';

/** Each attribute of a create's `after`, set from the manifest. */
function createdAttributes(after: Readonly<Record<string, unknown>>): AttributeChange[] {
  return Object.keys(after).map((path): AttributeChange => ({ path, before: undefined, after: after[path], origin: 'manifest', forcesReplacement: false }));
}

/** The attribute changes of `change`: a create's from its `after`, any other's as the diff found them. */
export function attributeChanges(change: ResourceChange): readonly AttributeChange[] {
  return change.action === 'create' && change.after !== null ? createdAttributes(change.after) : change.changes;
}
