/**
 * Looking for private identifiers where they must never be: canary markers (unique emails, phone
 * numbers, handles) are written into member files, and every form a marker can take — as
 * written, normalised, or its unique token alone — is searched for, case-insensitively and byte
 * for byte, in files (state, journal, member stores, caches, saved plans) and in captured output.
 * A finding names the place and the marker's form, never the marker's value beyond its label.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One marker: a label for messages and the forms to look for. */
export interface Marker {
  label: string;
  /** Every form the marker must not appear in (`written`, `normalised`, `token`, ...), each matched in any case. */
  forms: Array<{ kind: string; value: string }>;
}

/** Something to search: a file's bytes or a captured output. */
export interface Haystack {
  name: string;
  content: Buffer | string;
}

/** Every regular file below `dir` (recursively), except those for which `skip(relative path)` holds. */
export function filesUnder(dir: string, skip: (path: string) => boolean = () => false): Haystack[] {
  const out: Haystack[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at)) {
      const path = join(at, entry);
      const rel = relative(dir, path);
      if (skip(rel)) continue;
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) out.push({ name: rel, content: readFileSync(path) });
    }
  };
  walk(dir);
  return out;
}

/**
 * Where any form of any marker occurs in `haystacks`, as `"<haystack>: <marker label> (<form
 * kind>)"` lines; empty when none does. The search is case-insensitive: the haystack's bytes are
 * read as Latin-1 (one character per byte, so binary files are searched too) and lower-cased.
 */
export function findMarkers(haystacks: readonly Haystack[], markers: readonly Marker[]): string[] {
  const findings: string[] = [];
  const needles = markers.flatMap((m) => m.forms.map((f) => ({ label: m.label, kind: f.kind, form: f.value.toLowerCase() })));
  for (const h of haystacks) {
    const text = (typeof h.content === 'string' ? Buffer.from(h.content, 'utf8') : h.content).toString('latin1').toLowerCase();
    for (const n of needles) if (text.includes(n.form)) findings.push(`${h.name}: ${n.label} (${n.kind})`);
  }
  return findings;
}
