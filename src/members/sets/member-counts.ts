/**
 * What reading a member file counted: lines, valid, invalid and duplicate identifiers (per type
 * too) and the numbers of the first invalid lines. Counts and line numbers only: no value of the
 * file is ever kept here, so the counts can be printed, logged and saved freely.
 */
import { IDENTIFIER_TYPES, type IdentifierType } from './identifier.js';

/** How many invalid line numbers are kept. */
export const INVALID_LINES_KEPT = 20;

/** The counts of one identifier type. */
interface TypeCounts {
  /** Valid values, duplicates included. */
  valid: number;
  invalid: number;
  /** Valid values that repeat an earlier one of the same type. */
  duplicates: number;
}

/** The counts of a member file. */
export interface MemberFileCounts {
  /** Data lines read: the header and a final line break do not count, blank lines do. */
  lines: number;
  /** Valid identifiers, duplicates included. */
  valid: number;
  invalid: number;
  /** Valid identifiers that repeat an earlier one of the same type (valid minus distinct members). */
  duplicates: number;
  /** Numbers of the first 20 lines holding an invalid identifier, ascending. */
  invalidLines: number[];
  /** Lines holding an invalid identifier. */
  invalidLineCount: number;
  byType: Record<IdentifierType, TypeCounts>;
}

/** Counts of nothing read yet. */
export function emptyCounts(): MemberFileCounts {
  const byType = {} as Record<IdentifierType, TypeCounts>;
  for (const t of IDENTIFIER_TYPES) byType[t] = { valid: 0, invalid: 0, duplicates: 0 };
  return { lines: 0, valid: 0, invalid: 0, duplicates: 0, invalidLines: [], invalidLineCount: 0, byType };
}

/** Whether more than half of the identifiers read are invalid: a file the plan must refuse. */
export const mostlyInvalid = (counts: MemberFileCounts): boolean => counts.invalid * 2 > counts.valid + counts.invalid;

/** `1,234,567`: counts in messages. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');
