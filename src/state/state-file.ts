/**
 * The state of one account (docs/architecture.md): which live id each address is bound to, the values
 * adsctl last applied (so a plan can tell drift from manifest edits), and protection recorded
 * from `prevent_destroy`, which survives the removal of the block. No secrets. Written atomically:
 * a temporary file, fsync, rename.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shapeProblems } from './shape.js';
import { writeFileAtomic, type Fence } from './write-atomic.js';

export const STATE_FORMAT_VERSION = 1;

export interface StateResource {
  kind: string;
  /** The live id the address is bound to. */
  id: string;
  /** Attribute values as last applied (API field names, normalised). */
  applied: Record<string, unknown>;
  /** Set by `prevent_destroy`; cleared only when the manifest turns it off. */
  protected?: boolean;
  /** adsctl created the object (destroy may delete sandbox-only objects only then). */
  created?: boolean;
  /**
   * adsctl created the object paused to activate it once everything under it was written, and
   * has not activated it yet (docs/architecture.md, "Serving safety"): the next plan activates it
   * even where the manifest leaves its status to the service's default.
   */
  held?: boolean;
  /**
   * When adsctl last recorded `applied` as what the service holds (an apply's write, an import, a
   * refresh-only acceptance; ISO 8601 UTC): the object's account history after it is what was done
   * to it outside adsctl (docs/architecture.md, "Who changed it"). Absent in entries written before
   * it was kept, which count from the last apply.
   */
  recorded_at?: string;
}

export interface AccountState {
  format_version: number;
  /** The account's key: its id, or the manifest's name for an account adsctl creates. */
  account: string;
  /** The live account id once known. */
  account_id?: string;
  endpoint: string;
  /** Incremented on every write. */
  serial: number;
  /**
   * The apply journal holding the outcomes above this serial (its head's id): it must exist beside
   * the checkpoint (apply-journal.ts, `linkJournal`). Absent when no apply is under way.
   */
  journal_id?: string;
  /** The apply journal whose outcomes this checkpoint holds in full; one of this id left beside it is ignored. */
  absorbed_journal?: string;
  /**
   * The ids of the objects of each kind (campaigns, line items) that were live in the account but
   * not managed by adsctl when it was last applied (src/diff/unmanaged.ts): those are listed by a
   * plan but are not drift; any other is. Absent when there were none. Added within format 1: an
   * adsctl that does not know it keeps it as it is, and a state without it (written before, or
   * never applied) has seen none, so every unmanaged object counts as new.
   */
  unmanaged_seen?: Record<string, string[]>;
  /**
   * When `unmanaged_seen` last changed (ISO 8601 UTC): an unmanaged object new since is read in the
   * account history from then, however many imports or targeted runs wrote the state meanwhile.
   * Absent in states written before it was kept: from the last apply.
   */
  unmanaged_seen_at?: string;
  resources: Record<string, StateResource>;
}

/** A filesystem-safe file stem for an account key. */
export function stateStem(accountKey: string): string {
  return accountKey.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^\.+/, '_');
}

export function statePath(stateDir: string, accountKey: string): string {
  return join(stateDir, `${stateStem(accountKey)}.json`);
}

export function emptyState(accountKey: string, endpoint: string): AccountState {
  return { format_version: STATE_FORMAT_VERSION, account: accountKey, endpoint, serial: 0, resources: {} };
}

/** What to do about a state file adsctl cannot use; nothing has been changed when it is said. */
const REMEDY = 'Nothing was changed: restore the file from a backup or version control (or correct it), then run adsctl again.';

/**
 * Reads an account's state; a missing file is an empty state. A file that is not JSON, is of
 * another format, or does not match schemas/state.schema.json is an error message naming the file
 * and what is wrong: never taken for an empty state, which would create everything again.
 */
export function readState(stateDir: string, accountKey: string, endpoint: string): AccountState | string {
  const path = statePath(stateDir, accountKey);
  if (!existsSync(path)) return emptyState(accountKey, endpoint);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return `${path}: not valid JSON (${error instanceof Error ? error.message : String(error)}). ${REMEDY}`;
  }
  const version = (parsed as { format_version?: unknown } | null)?.format_version;
  if (typeof version === 'number' && version !== STATE_FORMAT_VERSION) return `${path}: state format ${version}, which this adsctl does not know (it reads format ${STATE_FORMAT_VERSION}); use the adsctl that wrote it`;
  const problems = shapeProblems('state', parsed, 'the state');
  if (problems.length > 0) return `${path}: damaged state: ${problems.join('; ')}. ${REMEDY}`;
  return parsed as AccountState;
}

/**
 * The text of a state file: its header members indented, then one line per resource, sorted by
 * address — three quarters of the bytes of an indented file, quicker to write and to read, and
 * still a readable, line-by-line diff. The account's key and id come first, so listing
 * a directory's accounts reads only the head of each file (state-head.ts).
 */
export function stateFileText(state: AccountState): string {
  return [...stateFilePieces(state)].join('');
}

/** Resource lines joined into one piece of the state file's text. */
const LINES_PER_PIECE = 1000;

/**
 * `stateFileText` in pieces of LINES_PER_PIECE resources: written one after the other, the state
 * of 100,000 resources (28 MB) never exists whole in memory, nor as 100,000 separate lines.
 */
function* stateFilePieces(state: AccountState): Generator<string> {
  const { format_version, account, account_id, endpoint, serial, resources, ...rest } = state;
  const head = JSON.stringify({ format_version, account, ...(account_id === undefined ? {} : { account_id }), endpoint, serial, ...rest }, null, 2);
  const addresses = Object.keys(resources).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  yield `${head.slice(0, -2)},\n  "resources": {`;
  for (let i = 0; i < addresses.length; i += LINES_PER_PIECE) {
    const lines = addresses.slice(i, i + LINES_PER_PIECE).map((address) => `    ${JSON.stringify(address)}: ${JSON.stringify(resources[address])}`);
    yield `${i === 0 ? '\n' : ',\n'}${lines.join(',\n')}`;
  }
  yield `${addresses.length === 0 ? '' : '\n  '}}\n}\n`;
}

/** `JSON.stringify(object)` of a plain object, with `split` giving some members' text in pieces. */
function* objectPieces(object: Record<string, unknown>, split: (key: string, member: unknown) => Iterable<string> | undefined): Generator<string> {
  yield '{';
  let separator = '';
  for (const [key, member] of Object.entries(object)) {
    // what JSON.stringify leaves out of an object
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    const name = `${separator}${JSON.stringify(key)}:`;
    separator = ',';
    const pieces = split(key, member);
    if (pieces === undefined) yield `${name}${JSON.stringify(member)}`;
    else {
      yield name;
      yield* pieces;
    }
  }
  yield '}';
}

/** `JSON.stringify(object)` of an object of resources, LINES_PER_PIECE members at a time. */
function* resourcePieces(object: Record<string, unknown>): Generator<string> {
  const keys = Object.keys(object).filter((key) => object[key] !== undefined);
  yield '{';
  for (let i = 0; i < keys.length; i += LINES_PER_PIECE) {
    yield `${i === 0 ? '' : ','}${keys.slice(i, i + LINES_PER_PIECE).map((key) => `${JSON.stringify(key)}:${JSON.stringify(object[key])}`).join(',')}`;
  }
  yield '}';
}

/**
 * The text of a kept version's file, `${JSON.stringify(version)}\n`, in pieces: its state's
 * resources LINES_PER_PIECE at a time, so the version of 100,000 resources kept at the end of an
 * apply never exists whole in memory (it was the apply's largest string, and with it its peak).
 */
export function* versionFilePieces(version: { state: AccountState }): Generator<string> {
  yield* objectPieces(version as unknown as Record<string, unknown>, (key, member) =>
    key === 'state' ? objectPieces(member as Record<string, unknown>, (k, m) => (k === 'resources' ? resourcePieces(m as Record<string, unknown>) : undefined)) : undefined,
  );
  yield '\n';
}

/** Writes the state atomically with the serial it carries; with a `fence`, only while it holds (write-atomic.ts). */
export function writeStateFile(stateDir: string, state: AccountState, fence?: Fence): void {
  writeFileAtomic(statePath(stateDir, state.account), stateFilePieces(state), 0o644, fence);
}

/** Writes the state atomically and bumps its serial. */
export function writeState(stateDir: string, state: AccountState): void {
  state.serial++;
  writeStateFile(stateDir, state);
}
