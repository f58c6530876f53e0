/**
 * `plan --refresh-only`: the finished plan seen only for what changed outside adsctl, as
 * Terraform's refresh-only plan shows it. A change is drift when some attribute moved away from
 * what adsctl last applied, or the object was deleted outside adsctl; everything else (manifest
 * edits, creates, removals) is left out, and nothing is planned: every drifted resource is a
 * no-op and no step, write or spend remains. JSON and Markdown are the usual renderings of that
 * plan; the text is Terraform's "Objects have changed outside of ..." report, followed by the
 * objects not managed by adsctl (unmanaged.ts), those that appeared since the last apply being
 * drift too.
 */
import type { ResourceChange } from '../diff/types.js';
import { formatDiagnostics } from '../diag/format.js';
import type { Plan } from '../plan/types.js';
import { accountTitle, accountViews, documentDiagnostics, errorCount, failedLine } from './document-views.js';
import { planToDocument } from './plan-document.js';
import { renderPlan, type PlanFormat, type RenderOptions } from './render.js';
import { driftBlock } from './resource-block.js';
import { requestsPhrase } from './summaries.js';
import { unmanagedTextLines } from './unmanaged.js';

/** Whether a change records something done outside adsctl. */
export function isDrift(change: ResourceChange): boolean {
  return change.drift || change.reason === 'deleted_outside';
}

/**
 * Whether any account of the plan has drift — a change made outside adsctl, or an object not
 * managed by adsctl that appeared since the last apply (src/diff/unmanaged.ts): what `plan
 * --refresh-only --detailed-exitcode` exits 2 for.
 */
export function hasDrift(plan: Plan): boolean {
  return plan.accounts.some((a) => a.changes.some(isDrift) || (a.unmanaged ?? []).some((u) => u.new));
}

/** The plan with only its drift, each drifted resource planned as no action. */
export function refreshOnlyPlan(plan: Plan): Plan {
  return {
    ...plan,
    accounts: plan.accounts.map((a) => ({
      ...a,
      changes: a.changes.filter(isDrift).map((c) => ({ ...c, action: 'noop' as const, changes: c.changes.filter((x) => x.origin === 'drift') })),
      layers: [],
      implied: [],
      spend: [],
      requests: { reads: a.requests.reads, writes: 0, batches: 0 },
    })),
  };
}

function blocks(parts: readonly string[][]): string[] {
  return parts.flatMap((p, i) => (i === 0 ? p : ['', ...p]));
}

function renderText(plan: Plan, options: RenderOptions): string {
  const doc = planToDocument(plan);
  const color = options.color ?? false;
  const accounts = accountViews(doc)
    .map((v) => ({ title: accountTitle(v.account), drifted: v.changes.filter((c) => c.drift) }))
    .filter((a) => a.drifted.length > 0);
  const sections: string[][] = [];
  const unmanaged = unmanagedTextLines(doc);
  if (accounts.length === 0) {
    const fresh = (doc.unmanaged ?? []).some((u) => u.drift);
    sections.push([fresh ? 'Objects not managed by adsctl appeared since the last apply.' : 'No changes. Nothing changed outside adsctl since the last apply.']);
  } else {
    sections.push([
      'Note: Objects have changed outside of adsctl',
      '',
      'adsctl detected the following changes made outside of adsctl since the last apply:',
      '',
      ...blocks(accounts.map((a) => [`${a.title}:`, '', ...blocks(a.drifted.map((c) => driftBlock(c, color)))])),
      '',
      'This is a refresh-only plan, so adsctl will not take any actions to undo these.',
    ]);
  }
  if (unmanaged.length > 0) sections.push(unmanaged);
  const diagnostics = formatDiagnostics(documentDiagnostics(doc), options.sources ?? new Map());
  if (diagnostics !== '') sections.push(diagnostics.trimEnd().split('\n'));
  const errors = errorCount(doc);
  sections.push([errors > 0 ? failedLine(errors) : `Requests: ${requestsPhrase(doc.requests)}.`]);
  return `${blocks(sections).join('\n')}\n`;
}

/** Renders `plan` (a finished plan, not yet reduced) as a refresh-only plan in `format`. */
export function renderRefreshOnly(plan: Plan, format: PlanFormat, options: RenderOptions = {}): string {
  const reduced = refreshOnlyPlan(plan);
  return format === 'text' ? renderText(reduced, options) : renderPlan(reduced, format, options);
}
