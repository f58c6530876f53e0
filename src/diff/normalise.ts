/**
 * Normalisation before comparison: one canonical form per shape, so that values that mean the
 * same compare equal — micros as integers, timestamps as `YYYY-MM-DDTHH:MM:SSZ`, ids as strings,
 * sets sorted without duplicates, and null for anything unset.
 */
import { isUnknownRef } from './types.js';
import type { Shape } from '../kinds/attribute.js';

const CANONICAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const DIGITS = /^-?\d+$/;

function normaliseTime(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (CANONICAL_TIME.test(value)) return value;
  const millis = Date.parse(value);
  if (Number.isNaN(millis)) return value;
  return new Date(Math.floor(millis / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function normaliseMicros(value: unknown): unknown {
  if (typeof value === 'string' && DIGITS.test(value.trim())) return Number(value.trim());
  if (typeof value === 'bigint') return Number(value);
  return value;
}

function normaliseSet(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length === 0) return [];
  const items = value.map((item) => (typeof item === 'number' ? String(item) : item));
  return items.every((item) => typeof item === 'string') ? [...new Set(items as string[])].sort() : items;
}

/**
 * The canonical form of `value` for `shape`; undefined becomes null. A value that is not of the
 * shape's type is returned unchanged (it then differs from every well-formed value), and an
 * `UnknownRef` is kept as it is.
 */
export function normaliseValue(shape: Shape, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (isUnknownRef(value)) return value;
  switch (shape) {
    case 'scalar':
    case 'list':
    case 'json':
      return value;
    case 'id':
      return typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
    case 'micros':
      return normaliseMicros(value);
    case 'time':
      return normaliseTime(value);
    case 'set':
      return normaliseSet(value);
  }
}
