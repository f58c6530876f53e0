/**
 * A readable JSON form of a DesiredState for golden files: addresses as their text form and
 * source ranges as `file:line:col-line:col`, everything else as is.
 */
import type { SourceRange } from '../../src/diag/source-range.js';
import { formatAddress } from '../../src/manifest/address.js';
import type { DesiredState, ResourceAddress } from '../../src/manifest/types.js';

const isAddress = (v: unknown): v is ResourceAddress =>
  typeof v === 'object' && v !== null && 'kind' in v && 'steps' in v && Array.isArray((v as { steps: unknown }).steps) && Object.keys(v).length === 2;

const isRange = (v: unknown): v is SourceRange => typeof v === 'object' && v !== null && 'file' in v && 'start' in v && 'end' in v;

/** The DesiredState as indented JSON with addresses and ranges in text form, ending with a newline. */
export function desiredStateJson(state: DesiredState): string {
  return `${JSON.stringify(
    state,
    (_key, value: unknown) => {
      if (isAddress(value)) return formatAddress(value);
      if (isRange(value)) return `${value.file}:${value.start.line}:${value.start.column}-${value.end.line}:${value.end.column}`;
      return value;
    },
    2,
  )}\n`;
}
