/**
 * Equality of normalised values by shape, written for the hot path of a diff of 100,000
 * resources: scalars by `===`, sets as sorted arrays (normalise.ts sorts them) with null equal to
 * the empty set, lists by position, JSON structurally — no serialisation, no allocation.
 */
import type { Shape } from '../kinds/attribute.js';

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let count = 0;
  for (const key in ra) {
    if (!Object.hasOwn(ra, key)) continue;
    if (!Object.hasOwn(rb, key) || !jsonEqual(ra[key], rb[key])) return false;
    count++;
  }
  for (const key in rb) if (Object.hasOwn(rb, key)) count--;
  return count === 0;
}

function isEmptySet(value: unknown): boolean {
  return value === null || (Array.isArray(value) && value.length === 0);
}

/** True when the normalised values `a` and `b` of a field of shape `shape` are the same. */
export function valuesEqual(shape: Shape, a: unknown, b: unknown): boolean {
  if (a === b) return true;
  switch (shape) {
    case 'scalar':
    case 'id':
    case 'micros':
    case 'time':
      return false;
    case 'set':
      if (isEmptySet(a) && isEmptySet(b)) return true;
      return jsonEqual(a, b);
    case 'list':
    case 'json':
      return jsonEqual(a, b);
  }
}
