/**
 * What `adsctl import ADDRESS ID` writes into state (docs/architecture.md, "Imports adopt
 * children"): the binding of the object, and those of the children the manifest declares under
 * it that the diff adopts by identity. The diff runs on the import's scope — the imported
 * resource with the id, what the manifest declares under it, and what those refer to or sit
 * under — so the command reads only what the import needs, and binds exactly what a manifest
 * `import:` entry of the same object would bind on apply. Pure.
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import { KINDS } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';
import { ACCOUNT_ADDRESS, formatAddress } from '../manifest/address.js';
import type { DesiredAccount, DesiredResource, ResourceKind } from '../manifest/types.js';
import type { AccountState, StateResource } from '../state/state-file.js';
import { appliedValues } from './applied.js';
import type { ResourceChange } from './types.js';

/** The diagnostics that stop an import: its object, or a child it adopts, cannot be bound. */
const BINDING_CODES: ReadonlySet<string> = new Set(['import-not-found', 'import-ambiguous', 'duplicate-binding']);

/** The binding problems among a diff's diagnostics; the others are the plan's to report. */
export function bindingProblems(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 'error' && BINDING_CODES.has(d.code));
}

/**
 * The state entry of a live `record` of `kind` bound to `resource`: its live values count as
 * applied, for the fields the manifest writes only (what it leaves to the service is not taken
 * for values adsctl applied), so the next plan shows only real differences. A write-only value
 * the service never answers (a media file's content hash) is taken as the manifest says. `at`:
 * when it is recorded (`StateResource.recorded_at`).
 */
export function importedEntry(kind: ResourceKind, resource: DesiredResource | undefined, record: Readonly<Record<string, unknown>>, id: string, at?: string): StateResource {
  const written = new Set([...Object.keys(resource?.attributes ?? {}), ...Object.keys(resource?.references ?? {})]);
  const assumed: Record<string, unknown> = {};
  for (const rule of KINDS[kind].attributes) {
    const value = resource?.attributes[rule.field];
    if (rule.writeOnly === true && !Object.hasOwn(record, rule.field) && value !== undefined) assumed[rule.field] = value;
  }
  return { kind, id, applied: appliedValues(kind, record, assumed, written), ...(at === undefined ? {} : { recorded_at: at }) };
}

/** True when `text` is an address under the address `parent`. */
function isUnder(text: string, parent: string): boolean {
  return text.length > parent.length + 1 && text.startsWith(parent) && text[parent.length] === '.';
}

/**
 * The manifest of an import's scope: the resource at `text`, bound to `id` as an import entry
 * would bind it, every resource under it, and, transitively, the parents and the targets of the
 * references of those (so that a criterion naming an audience of the manifest resolves it).
 */
export function importScope(desired: DesiredAccount, text: string, id: string): DesiredAccount {
  const byText = new Map(desired.resources.map((r) => [formatAddress(r.address), r]));
  const wanted = new Set<string>();
  const queue: DesiredResource[] = [];
  const add = (t: string): void => {
    const resource = byText.get(t);
    if (resource === undefined || wanted.has(t)) return;
    wanted.add(t);
    queue.push(resource);
  };
  add(text);
  add(formatAddress(ACCOUNT_ADDRESS));
  for (const t of byText.keys()) if (isUnder(t, text)) add(t);
  for (let resource = queue.pop(); resource !== undefined; resource = queue.pop()) {
    if (resource.parent !== undefined) add(formatAddress(resource.parent));
    for (const target of Object.values(resource.references)) add(formatAddress(target));
  }
  const resources = desired.resources.filter((r) => wanted.has(formatAddress(r.address))).map((r) => (formatAddress(r.address) === text ? { ...r, importId: id } : r));
  return { ...desired, resources };
}

/** `state` with only the entries of addresses the scope declares. */
export function scopedState(state: AccountState, scope: DesiredAccount): AccountState {
  const resources: Record<string, StateResource> = {};
  for (const r of scope.resources) {
    const t = formatAddress(r.address);
    const entry = state.resources[t];
    if (entry !== undefined) resources[t] = entry;
  }
  return { ...state, resources };
}

/**
 * The state entries of the children under `text` that the scope's diff binds to live objects the
 * state does not bind yet (adopted by identity, or named by an import entry of their own), by
 * address text.
 */
export function adoptedEntries(changes: readonly ResourceChange[], scope: DesiredAccount, live: LiveAccount, state: AccountState, text: string): Record<string, StateResource> {
  const byText = new Map(scope.resources.map((r) => [formatAddress(r.address), r]));
  const out: Record<string, StateResource> = {};
  for (const change of changes) {
    const t = formatAddress(change.address);
    if (!isUnder(t, text) || change.id === undefined || state.resources[t] !== undefined) continue;
    const record = live.resources.get(change.kind)?.get(change.id)?.record;
    if (record !== undefined) out[t] = importedEntry(change.kind, byText.get(t), record, change.id);
  }
  return out;
}
