/**
 * The state of one account (docs/architecture.md): which live id each address is bound to, the values
 * adsctl last applied (so a plan can tell drift from manifest edits), and protection recorded
 * from `prevent_destroy`, which survives the removal of the block. No secrets. Written atomically:
 * a temporary file, fsync, rename.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

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

/** Reads an account's state; a missing file is an empty state; a damaged one is an error message. */
export function readState(stateDir: string, accountKey: string, endpoint: string): AccountState | string {
  const path = statePath(stateDir, accountKey);
  if (!existsSync(path)) return emptyState(accountKey, endpoint);
  let parsed: AccountState;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as AccountState;
  } catch (error) {
    return `${path}: not valid JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  if (parsed.format_version !== STATE_FORMAT_VERSION) return `${path}: unsupported state format ${String(parsed.format_version)}`;
  if (typeof parsed.resources !== 'object' || parsed.resources === null) return `${path}: no resources object`;
  return parsed;
}

/** Writes the state atomically and bumps its serial. */
export function writeState(stateDir: string, state: AccountState): void {
  const path = statePath(stateDir, state.account);
  mkdirSync(dirname(path), { recursive: true });
  state.serial++;
  const sorted: AccountState = { ...state, resources: Object.fromEntries(Object.entries(state.resources).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w', 0o644);
  try {
    writeSync(fd, `${JSON.stringify(sorted, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
