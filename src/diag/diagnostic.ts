/**
 * Diagnostics are values: every user problem found by a stage is returned beside its result,
 * never thrown. A diagnostic names a short, stable code (`unknown-reference`, `money-precision`,
 * ...) that tests and scripts can rely on, and points at the exact key or value at fault.
 */
import { compareRanges, type SourceRange } from './source-range.js';

/** How bad a problem is: errors stop the pipeline, warnings are shown and let it go on. */
type Severity = 'error' | 'warning';

/** Another place that explains a diagnostic, e.g. the first definition of a duplicate. */
export interface RelatedLocation {
  message: string;
  range: SourceRange;
}

/**
 * One problem. `range` is absent only when there is no source to point at (a path that does not
 * exist); `related` lists other places worth showing.
 */
export interface Diagnostic {
  severity: Severity;
  code: string;
  message: string;
  range?: SourceRange;
  related?: RelatedLocation[];
  /** The address of the resource the problem is about, when it is about one (a plan limited by targets keeps only those of its resources). */
  subject?: string;
}

/** The shape every stage's entry function returns: a value when it could make one, and its diagnostics. */
export interface Result<T> {
  value: T | undefined;
  diagnostics: Diagnostic[];
}

/** Builds an error diagnostic; `related` is left out when empty so values compare and serialise cleanly. */
export function errorAt(code: string, message: string, range?: SourceRange, related?: RelatedLocation[]): Diagnostic {
  return {
    severity: 'error',
    code,
    message,
    ...(range === undefined ? {} : { range }),
    ...(related === undefined || related.length === 0 ? {} : { related }),
  };
}

/** Builds a warning diagnostic at `range`. */
export function warningAt(code: string, message: string, range?: SourceRange): Diagnostic {
  return { severity: 'warning', code, message, ...(range === undefined ? {} : { range }) };
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * Puts diagnostics in reading order: those without a position first, then by file in the order
 * of `files` (files not listed after, by name), then by position; ties keep their original order.
 * Identical diagnostics (same code, message and place) are kept once.
 */
export function sortDiagnostics(diagnostics: readonly Diagnostic[], files: readonly string[] = []): Diagnostic[] {
  const fileRank = new Map(files.map((f, i) => [f, i]));
  const rank = (file: string): number => fileRank.get(file) ?? files.length;
  const seen = new Set<string>();
  const unique = diagnostics.filter((d) => {
    const key = `${d.code}\u0000${d.message}\u0000${d.range?.file ?? ''}\u0000${d.range?.start.offset ?? -1}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique
    .map((d, i) => ({ d, i }))
    .sort((x, y) => {
      const a = x.d.range;
      const b = y.d.range;
      if (a === undefined || b === undefined) return (a === undefined ? 0 : 1) - (b === undefined ? 0 : 1) || x.i - y.i;
      return rank(a.file) - rank(b.file) || compareRanges(a, b) || x.i - y.i;
    })
    .map(({ d }) => d);
}
