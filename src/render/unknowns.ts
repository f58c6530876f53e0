/**
 * Values known only after apply, in the form of `terraform show -json`. A plan holds such a value
 * as an `UnknownRef` (any object with a string `$ref`, such as the id of a resource yet to be
 * created); the document never shows that internal object. It splits a value in two instead: the
 * known part, which goes in `after`, and a mask, which goes in `after_unknown` and says where the
 * unknown parts were.
 */
import { isUnknownRef } from '../diff/types.js';

/**
 * Terraform's `after_unknown` shape for one value: `true` where the value is unknown, `false`
 * where it is a known scalar (or null), an array of masks for an array, and for an object an
 * object holding only the masks of its members that are not `false`.
 */
export type UnknownMask = boolean | UnknownMask[] | { [key: string]: UnknownMask };

/** Whether a value holds a value known only after apply, at any depth. */
export function containsUnknown(value: unknown): boolean {
  if (isUnknownRef(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * The known part of a value, as Terraform's `omitUnknowns`: unknown members of objects are left
 * out, unknown elements of arrays become null (positions tie an array to its mask); undefined
 * when the value itself is unknown.
 */
export function knownPart(value: unknown): unknown {
  if (isUnknownRef(value)) return undefined;
  if (Array.isArray(value)) return value.map((item) => knownPart(item) ?? null);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, member]) => (isUnknownRef(member) ? [] : [[key, knownPart(member)]])));
}

/** The mask of a value, as Terraform's `unknownAsBool` (see `UnknownMask`). */
export function unknownMask(value: unknown): UnknownMask {
  if (isUnknownRef(value)) return true;
  if (Array.isArray(value)) return value.map(unknownMask);
  if (value === null || typeof value !== 'object') return false;
  return Object.fromEntries(Object.entries(value).flatMap(([key, member]) => {
    const mask = unknownMask(member);
    return mask === false ? [] : [[key, mask]];
  }));
}

/**
 * The `after_unknown` of a whole resource: `{}` when every value is known, as Terraform writes it
 * for a value with nothing unknown (a delete's null included), else the mask of `after`.
 */
export function afterUnknown(after: Record<string, unknown> | null): { [key: string]: UnknownMask } {
  if (after === null || !containsUnknown(after)) return {};
  return unknownMask(after) as { [key: string]: UnknownMask };
}

/** Whether a mask marks anything as unknown; an absent mask marks nothing. */
export function marksUnknown(mask: UnknownMask | undefined): boolean {
  if (mask === undefined || typeof mask === 'boolean') return mask === true;
  if (Array.isArray(mask)) return mask.some(marksUnknown);
  return Object.values(mask).some(marksUnknown);
}
