/**
 * Read-only views of a plan document shared by the text and Markdown renderers: the resources of
 * each account, which of them changed outside adsctl, how an account is named, and the
 * document's diagnostics as `Diagnostic` values for `src/diag/format.ts`.
 */
import { undeletableNoun } from './undeletable.js';
import type { Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import type { ChangeFacts, DocumentAccount, DocumentRange, DocumentResourceChange, DocumentSummary, PlanDocument, PlanDocumentHead, PlanDocumentStream } from './document-types.js';

/** One account of the document with its resource changes in document order. */
interface AccountView {
  account: DocumentAccount;
  changes: DocumentResourceChange[];
}

/** The resources of every account, accounts in document order (resources of unknown accounts are dropped). */
export function accountViews(doc: PlanDocument): AccountView[] {
  const views = doc.accounts.map((account) => ({ account, changes: [] as DocumentResourceChange[] }));
  const byKey = new Map(views.map((v) => [v.account.key, v]));
  for (const rc of doc.resource_changes) byKey.get(rc.account)?.changes.push(rc);
  return views;
}

/** A whole document seen as a stream (document-types.ts), for renderers that take one. */
export function documentStream(doc: PlanDocument): PlanDocumentStream {
  const { resource_changes: _changes, ...head } = doc;
  const accounts = accountViews(doc).map(({ account, changes }) => ({
    account,
    facts: changes,
    *changes(which: (facts: ChangeFacts) => boolean = () => true): Generator<DocumentResourceChange> {
      for (const c of changes) if (which(c)) yield c;
    },
  }));
  return { head, accounts };
}

/** Whether a change is shown among the actions: anything but a no-op, and the no-op that releases an object. */
export function isAction(rc: ChangeFacts): boolean {
  return rc.change.actions[0] !== 'no-op' || rc.reason === 'released' || rc.reason === 'import';
}

/**
 * Terraform's counts of a list of changes: a replacement is one add and one destroy — except of an
 * object the API cannot delete, which stays on the service; imports counted apart (when any), as
 * Terraform's `N to import`.
 */
export function countChanges(changes: readonly ChangeFacts[]): DocumentSummary {
  const summary: DocumentSummary = { add: 0, change: 0, destroy: 0, drift: 0 };
  for (const { change, drift, type, reason } of changes) {
    const [first, second] = change.actions;
    if (first === 'create' || second === 'create') summary.add += 1;
    if (first === 'delete' && undeletableNoun(type) === undefined) summary.destroy += 1;
    if (first === 'update') summary.change += 1;
    if (drift) summary.drift += 1;
    if (reason === 'import') summary.import = (summary.import ?? 0) + 1;
  }
  return summary;
}

/**
 * `Account "Acme" (18ce54d4x5t) on sandbox`: the account by its name and id, whichever it has;
 * by its key (the manifest's path) only while it has neither, before its first apply.
 */
export function accountTitle(account: DocumentAccount): string {
  return `Account ${accountLabel(account)} on ${account.endpoint}`;
}

/** `"Acme" (18ce54d4x5t)`, `"Acme"`, `18ce54d4x5t`, or the key when the account has no name or id yet. */
export function accountLabel(account: Pick<DocumentAccount, 'key' | 'id' | 'name'>): string {
  const name = account.name === undefined ? undefined : JSON.stringify(account.name);
  if (name !== undefined) return account.id === null ? name : `${name} (${account.id})`;
  return account.id ?? account.key;
}

function range(r: DocumentRange): SourceRange {
  return { file: r.file, start: { ...r.start }, end: { ...r.end } };
}

/** The document's diagnostics as the values `formatDiagnostics` renders. */
export function documentDiagnostics(doc: PlanDocumentHead): Diagnostic[] {
  return doc.diagnostics.map((d) => ({
    severity: d.severity,
    code: d.code,
    message: d.message,
    ...(d.range === null ? {} : { range: range(d.range) }),
    ...(d.related.length === 0 ? {} : { related: d.related.map((r) => ({ message: r.message, range: range(r.range) })) }),
  }));
}

/** The number of error diagnostics: a plan with any cannot be applied. */
export function errorCount(doc: PlanDocumentHead): number {
  return doc.diagnostics.filter((d) => d.severity === 'error').length;
}

/** The `moved` and `removed` lines of one account (`# campaigns.a has moved to campaigns.b`), in plan order. */
export function refactorLines(doc: PlanDocumentHead, account: string): string[] {
  const under = (count: number): string => (count > 1 ? ` (with ${count - 1} resource${count === 2 ? '' : 's'} under it)` : '');
  return [
    ...(doc.moved ?? []).filter((m) => m.account === account).map((m) => `  # ${m.from} has moved to ${m.to}${under(m.count)}`),
    ...(doc.removed ?? []).filter((r) => r.account === account).map((r) => `  # ${r.address} will be removed from the state; the live object stays${under(r.count)}`),
  ];
}

/** Whether the plan changes anything: an action, a move, or a removal from the state. */
export function hasPlanned(doc: PlanDocument): boolean {
  return doc.resource_changes.some(isAction) || (doc.moved?.length ?? 0) > 0 || (doc.removed?.length ?? 0) > 0;
}

/** `No changes. ...` in the wording of the document's mode. */
export function noChangesLine(doc: PlanDocumentHead): string {
  return doc.mode === 'destroy' ? 'No changes. No objects need to be destroyed.' : 'No changes. The live accounts match the manifests.';
}

/** `Planning failed: 2 errors. This plan cannot be applied.` */
export function failedLine(errors: number): string {
  return `Planning failed: ${errors} error${errors === 1 ? '' : 's'}. This plan cannot be applied.`;
}
