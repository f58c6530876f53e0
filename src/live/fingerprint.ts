/**
 * The fingerprint of a live record, which a saved plan keeps for every object it touches and
 * `apply PLANFILE` compares: the record's `updated_at` and a hash of its content. `updated_at`
 * has whole seconds, so a change by hand in the same second as the write before it leaves it
 * unchanged; the content hash still tells the two apart. Fields the service derives on every
 * read (serving and review status) are left out: they move without anyone writing the object.
 */
import { createHash } from 'node:crypto';

const DERIVED: ReadonlySet<string> = new Set(['servable', 'reasons_not_servable', 'effective_status', 'approval_status']);

const stable = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(stable);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, stable(v)]));
};

/** `<updated_at>, content <hash>`; equal for two reads of an object exactly when nothing wrote it between them. */
export function fingerprintOf(record: Readonly<Record<string, unknown>>): string {
  const content = Object.fromEntries(Object.entries(record).filter(([k]) => !DERIVED.has(k)));
  const hash = createHash('sha256').update(JSON.stringify(stable(content))).digest('hex').slice(0, 12);
  return typeof record['updated_at'] === 'string' ? `${record['updated_at']}, content ${hash}` : `content ${hash}`;
}

/** The `updated_at` a fingerprint of `fingerprintOf` carries, for telling people when an object moved; undefined when its record had none. */
export function fingerprintUpdatedAt(fingerprint: string): string | undefined {
  const at = fingerprint.lastIndexOf(', content ');
  return at < 0 ? undefined : fingerprint.slice(0, at);
}
