/**
 * Whether a value a client sent back equals what a record holds: how a PUT recognises read-only
 * attributes echoed unchanged (docs/service-behaviour.md, "Errors"). Sent values are strings (query
 * or form; a list as comma-joined text or repeated keys), or JSON values (batch items). `null` and
 * an empty list match an empty value; numbers and booleans match their text; timestamps match any
 * ISO 8601 text of the same instant; lists match in any order.
 */
import { parseTime } from './clock.js';
import { RepeatedParam } from './request.js';

const sortedTexts = (values: readonly unknown[]): string[] => values.map((v) => String(v)).sort();

function sameList(sent: unknown, current: readonly unknown[]): boolean {
  const items =
    sent instanceof RepeatedParam
      ? sent.values.flatMap((s) => s.split(','))
      : Array.isArray(sent)
        ? sent
        : typeof sent === 'string'
          ? sent === '' ? [] : sent.split(',')
          : undefined;
  if (items === undefined) return false;
  return JSON.stringify(sortedTexts(items.map((s) => (typeof s === 'string' ? s.trim() : s)))) === JSON.stringify(sortedTexts(current));
}

/** True when `sent` (as a client sent it) equals `current` (as the record holds it). */
export function sameAsCurrent(sent: unknown, current: unknown): boolean {
  if (Array.isArray(current)) return sameList(sent, current);
  if (sent instanceof RepeatedParam) return false;
  if (current === null || current === undefined) return sent === null || sent === '';
  if (typeof current === 'object') return JSON.stringify(sent) === JSON.stringify(current);
  if (typeof sent !== 'string') return sent === current;
  if (typeof current === 'number') return /^-?\d+(\.\d+)?$/.test(sent.trim()) && Number(sent) === current;
  if (typeof current === 'boolean') return sent === String(current);
  if (sent === current) return true;
  const [a, b] = [parseTime(sent), /^\d{4}-\d\d-\d\dT/.test(String(current)) ? parseTime(String(current)) : undefined];
  return a !== undefined && b !== undefined && a.getTime() === b.getTime();
}
