/**
 * `plan --refresh-only`: the finished plan seen only for what changed outside adsctl, as
 * Terraform's refresh-only plan shows it. A change is drift when some attribute moved away from
 * what adsctl last applied, or the object was deleted outside adsctl; everything else (manifest
 * edits, creates, removals) is left out, and nothing is planned: every drifted resource is a
 * no-op and no step or write remains; each account's spend is what the drift moved
 * (src/plan/drift-spend.ts). JSON is the usual rendering of that plan; the text is Terraform's
 * "Objects have changed outside of ..." report, followed by the objects not managed by adsctl
 * (unmanaged.ts), those that appeared since the last apply being drift too, and ends with the
 * drift digest (drift-digest.ts), which with `--markdown` is the whole output: one issue body.
 */
import { formatDiagnostics } from '../diag/format.js';
import { isDrift } from '../plan/drift.js';
import { driftSpendOf } from '../plan/drift-spend.js';
import type { Plan } from '../plan/types.js';
import { renderDriftDigest } from './drift-digest.js';
import { accountTitle, accountViews, documentDiagnostics, errorCount, failedLine } from './document-views.js';
import { planToDocument } from './plan-document.js';
import { renderPlan, type PlanFormat, type RenderOptions } from './render.js';
import { driftBlock } from './resource-block.js';
import { requestsPhrase } from './summaries.js';
import { unmanagedTextLines } from './unmanaged.js';

// what drift is, decided once for the plan that shows it and the apply that accepts it (plan/drift.ts)
export { hasDrift, isDrift } from '../plan/drift.js';

/**
 * The plan with only its drift, each drifted resource planned as no action, its spend the spend
 * the drift moved; nothing it would write, nor put back or repair.
 */
export function refreshOnlyPlan(plan: Plan): Plan {
  return {
    ...plan,
    accounts: plan.accounts.map(({ restores: _restores, withoutCreative: _withoutCreative, ...a }) => ({
      ...a,
      changes: a.changes.filter(isDrift).map((c) => ({ ...c, action: 'noop' as const, changes: c.changes.filter((x) => x.origin === 'drift') })),
      layers: [],
      implied: [],
      spend: driftSpendOf(a.changes.filter(isDrift), a.unmanaged ?? [], new Map((a.driftServing ?? []).map(({ currency, ...s }) => [currency, s]))),
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
  const digest = renderDriftDigest(doc, 'text', { color });
  if (digest !== '') sections.push(digest.trimEnd().split('\n'));
  const errors = errorCount(doc);
  sections.push([errors > 0 ? failedLine(errors) : `Requests: ${requestsPhrase(doc.requests)}.`]);
  return `${blocks(sections).join('\n')}\n`;
}

/**
 * Renders `plan` (a finished plan, not yet reduced) as a refresh-only plan in `format`: text ending
 * with the drift digest, the digest alone as Markdown, or the JSON document both are rendered from.
 */
export function renderRefreshOnly(plan: Plan, format: PlanFormat, options: RenderOptions = {}): string {
  const reduced = refreshOnlyPlan(plan);
  if (format === 'text') return renderText(reduced, options);
  if (format === 'markdown') return renderDriftDigest(planToDocument(reduced, { shownOnly: true }), 'markdown', { sources: options.sources ?? new Map() });
  return renderPlan(reduced, format, options);
}
