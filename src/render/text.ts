/**
 * The plan as text for a terminal or a CI log, in Terraform's layout: what changed outside
 * adsctl first (its own section, so drift is never mistaken for an edit), what spends in the
 * accounts without adsctl managing it (`Not managed by adsctl`, unmanaged.ts), then the legend and
 * the planned actions per account (the lines a guardrail refuses marked), then the violations of
 * the guardrails of adsctl.yaml (guardrails.ts), then diagnostics, then `Plan: N to add, N to change, N to
 * destroy.` and adsctl's line with requests and spend. Rendered from the plan document only.
 */
import { formatDiagnostics, type SourceTexts } from '../diag/format.js';
import type { PlanDocument } from './document-types.js';
import { accountTitle, accountViews, documentDiagnostics, errorCount, failedLine, hasPlanned, isAction, noChangesLine, refactorLines } from './document-views.js';
import { blockingCount, guardrailFailedLine, guardrailTextLines, markedBlock } from './guardrails.js';
import { actionBlock, driftBlock } from './resource-block.js';
import { planCountsLine, requestsAndSpendLine } from './summaries.js';
import { LEGEND, paintSymbols, shownAction } from './symbols.js';
import { unmanagedTextLines } from './unmanaged.js';

/** How text is rendered: ANSI colour or none; manifest texts for the source lines under diagnostics. */
interface TextOptions {
  color: boolean;
  sources?: SourceTexts;
}

const RULE = '─'.repeat(77);

/** Blocks separated by blank lines. */
function joinBlocks(blocks: readonly string[][]): string[] {
  return blocks.flatMap((b, i) => (i === 0 ? b : ['', ...b]));
}

/** The section listing resources changed outside adsctl, empty when there are none. */
function driftSectionLines(doc: PlanDocument, color: boolean): string[] {
  const accounts = accountViews(doc)
    .map((v) => ({ title: accountTitle(v.account), drifted: v.changes.filter((c) => c.drift) }))
    .filter((a) => a.drifted.length > 0);
  if (accounts.length === 0) return [];
  return [
    'Objects changed outside adsctl',
    '',
    'adsctl detected the following changes made outside adsctl since the last apply:',
    '',
    ...joinBlocks(accounts.map((a) => [`${a.title}:`, '', ...joinBlocks(a.drifted.map((c) => driftBlock(c, color)))])),
    '',
    'Unless the manifests are changed to match, or the fields are listed in lifecycle.ignore_changes,',
    'the plan below undoes these changes.',
  ];
}

function legendLines(doc: PlanDocument, color: boolean): string[] {
  const used = new Set(doc.resource_changes.map((c) => shownAction(c.change.actions)));
  const lines = LEGEND.filter(([action]) => used.has(action)).map(([, line]) => paintSymbols(line.slice(0, 3), color) + line.slice(3));
  return ['Resource actions are indicated with the following symbols:', ...lines];
}

function actionLines(doc: PlanDocument, color: boolean): string[] {
  const accounts = accountViews(doc).map((v) => {
    const actions = v.changes.filter(isAction);
    const refactored = refactorLines(doc, v.account.key);
    if (actions.length === 0 && refactored.length === 0) return [`${accountTitle(v.account)}: no changes.`];
    // each block is joined into one string as soon as it is made: its lines are then garbage at
    // once, where 100,000 blocks of separate lines were half the heap of a large apply
    const marked = (c: (typeof actions)[number]): string[] => [markedBlock(actionBlock(c, color), doc.guardrails.filter((g) => g.account === c.account && g.address === c.address)).join('\n')];
    return [`${accountTitle(v.account)}:`, '', ...joinBlocks([...(refactored.length === 0 ? [] : [refactored]), ...actions.map(marked)])];
  });
  return [...legendLines(doc, color), '', 'adsctl will perform the following actions:', '', ...joinBlocks(accounts)];
}

/**
 * Renders the plan document as text. With no actions it says `No changes. The live accounts
 * match the manifests.`; with error diagnostics it ends with `Planning failed: ...` instead of
 * the `Plan:` line, so nothing grepping for that line mistakes a failed plan for a good one.
 */
export function renderText(doc: PlanDocument, options: TextOptions): string {
  const sections: string[][] = [];
  const drift = driftSectionLines(doc, options.color);
  if (drift.length > 0) sections.push([...drift, '', RULE]);
  const unmanaged = unmanagedTextLines(doc);
  if (unmanaged.length > 0) sections.push([...unmanaged, '', RULE]);
  const hasActions = hasPlanned(doc);
  if (hasActions) sections.push(actionLines(doc, options.color));
  const guardrails = guardrailTextLines(doc);
  if (guardrails.length > 0) sections.push(guardrails);
  const diagnostics = formatDiagnostics(documentDiagnostics(doc), options.sources ?? new Map());
  if (diagnostics !== '') sections.push(diagnostics.trimEnd().split('\n'));
  const errors = errorCount(doc);
  const blocking = blockingCount(doc);
  if (errors > 0) {
    sections.push([failedLine(errors)]);
  } else if (blocking > 0) {
    sections.push([guardrailFailedLine(blocking)]);
  } else {
    sections.push([hasActions ? planCountsLine(doc.summary) : noChangesLine(doc), requestsAndSpendLine(doc.requests, doc.spend)]);
  }
  return `${joinBlocks(sections).join('\n')}\n`;
}
