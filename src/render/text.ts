/**
 * The plan as text for a terminal or a CI log, in Terraform's layout: what serves with no
 * creative first (without-creative.ts: the apply repairs it before anything else), what changed
 * outside adsctl (its own section, so drift is never mistaken for an edit), what spends in the
 * accounts without adsctl managing it (`Not managed by adsctl`, unmanaged.ts), what of that sits
 * under an object the plan deletes and whether it goes with it (unmanaged-children.ts), then the
 * legend and the planned actions per account (the lines a guardrail refuses marked), then the violations of
 * the guardrails of adsctl.yaml (guardrails.ts), then diagnostics, then `Plan: N to add, N to change, N to
 * destroy.` and adsctl's line with requests and spend. Rendered from the plan document only.
 */
import { formatDiagnostics, type SourceTexts } from '../diag/format.js';
import type { DocumentResourceChange, PlanDocument, PlanDocumentHead, PlanDocumentStream, StreamedAccount } from './document-types.js';
import { accountTitle, documentDiagnostics, documentStream, errorCount, failedLine, isAction, noChangesLine, refactorLines } from './document-views.js';
import { blockingCount, guardrailFailedLine, guardrailTextLines, markedBlock } from './guardrails.js';
import { actionBlock, driftBlock } from './resource-block.js';
import { planCountsLine, requestsAndSpendLine } from './summaries.js';
import { LEGEND, paintSymbols, shownAction } from './symbols.js';
import { unmanagedTextLines } from './unmanaged.js';
import { unmanagedChildrenTextLines } from './unmanaged-children.js';
import { withoutCreativeTextLines } from './without-creative.js';

/** How text is rendered: ANSI colour or none; manifest texts for the source lines under diagnostics. */
interface TextOptions {
  color: boolean;
  sources?: SourceTexts;
}

const RULE = '─'.repeat(77);

/** The lines of blocks separated by blank lines, each block taken as the iteration reaches it. */
function* joinBlocks(blocks: Iterable<Iterable<string>>): Generator<string> {
  let first = true;
  for (const block of blocks) {
    if (!first) yield '';
    first = false;
    yield* block;
  }
}

function* mapped<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

/** The section listing resources changed outside adsctl; only called when something drifted. */
function* driftSectionLines(stream: PlanDocumentStream, color: boolean): Generator<string> {
  const accounts = stream.accounts.filter((a) => a.facts.some((f) => f.drift));
  yield* ['Objects changed outside adsctl', '', 'adsctl detected the following changes made outside adsctl since the last apply:', ''];
  yield* joinBlocks(mapped(accounts, (a) => joinBlocks([[`${accountTitle(a.account)}:`], joinBlocks(mapped(a.changes((f) => f.drift), (c) => driftBlock(c, color)))])));
  yield* ['', 'Unless the manifests are changed to match, or the fields are listed in lifecycle.ignore_changes,', 'the plan below undoes these changes.'];
}

function legendLines(stream: PlanDocumentStream, color: boolean): string[] {
  const used = new Set(stream.accounts.flatMap((a) => a.facts.map((f) => shownAction(f.change.actions))));
  const lines = LEGEND.filter(([action]) => used.has(action)).map(([, line]) => paintSymbols(line.slice(0, 3), color) + line.slice(3));
  return ['Resource actions are indicated with the following symbols:', ...lines];
}

function* concat<T>(...parts: Array<Iterable<T>>): Generator<T> {
  for (const part of parts) yield* part;
}

/** One account's planned actions, each resource's block built, marked and joined as it is reached. */
function* accountActionLines(head: PlanDocumentHead, account: StreamedAccount, color: boolean): Generator<string> {
  const title = accountTitle(account.account);
  const refactored = refactorLines(head, account.account.key);
  if (!account.facts.some(isAction) && refactored.length === 0) {
    yield `${title}: no changes.`;
    return;
  }
  // each block is one string, built when it is printed: the document of 100,000 changes and
  // their text never exist whole
  const marked = (c: DocumentResourceChange): string[] => [markedBlock(actionBlock(c, color), head.guardrails.filter((g) => g.account === c.account && g.address === c.address)).join('\n')];
  yield* [`${title}:`, ''];
  yield* joinBlocks(concat<Iterable<string>>(refactored.length === 0 ? [] : [refactored], mapped(account.changes(isAction), marked)));
}

function* actionLines(stream: PlanDocumentStream, color: boolean): Generator<string> {
  yield* [...legendLines(stream, color), '', 'adsctl will perform the following actions:', ''];
  yield* joinBlocks(mapped(stream.accounts, (a) => accountActionLines(stream.head, a, color)));
}

/** Whether the plan changes anything: an action, a move, or a removal from the state. */
function hasPlanned(stream: PlanDocumentStream): boolean {
  return stream.accounts.some((a) => a.facts.some(isAction)) || (stream.head.moved?.length ?? 0) > 0 || (stream.head.removed?.length ?? 0) > 0;
}

/**
 * Renders the plan document as text, one line (or one resource's block) at a time; each ends
 * with a newline when written. With no actions it says `No changes. The live accounts
 * match the manifests.`; with error diagnostics it ends with `Planning failed: ...` instead of
 * the `Plan:` line, so nothing grepping for that line mistakes a failed plan for a good one.
 */
export function renderTextLines(stream: PlanDocumentStream, options: TextOptions): Generator<string> {
  const { head } = stream;
  const sections: Array<Iterable<string>> = [];
  const withoutCreative = withoutCreativeTextLines(head);
  if (withoutCreative.length > 0) sections.push([...withoutCreative, '', RULE]);
  if (stream.accounts.some((a) => a.facts.some((f) => f.drift))) sections.push(concat(driftSectionLines(stream, options.color), ['', RULE]));
  const unmanaged = unmanagedTextLines(head);
  if (unmanaged.length > 0) sections.push([...unmanaged, '', RULE]);
  const children = unmanagedChildrenTextLines(head);
  if (children.length > 0) sections.push([...children, '', RULE]);
  const hasActions = hasPlanned(stream);
  if (hasActions) sections.push(actionLines(stream, options.color));
  const guardrails = guardrailTextLines(head);
  if (guardrails.length > 0) sections.push(guardrails);
  const diagnostics = formatDiagnostics(documentDiagnostics(head), options.sources ?? new Map());
  if (diagnostics !== '') sections.push(diagnostics.trimEnd().split('\n'));
  const errors = errorCount(head);
  const blocking = blockingCount(head);
  if (errors > 0) {
    sections.push([failedLine(errors)]);
  } else if (blocking > 0) {
    sections.push([guardrailFailedLine(blocking)]);
  } else {
    sections.push([hasActions ? planCountsLine(head.summary) : noChangesLine(head), requestsAndSpendLine(head.requests, head.spend)]);
  }
  return joinBlocks(sections);
}

/** The text of a whole plan document at once (renderTextLines, each line ended by a newline). */
export function renderText(doc: PlanDocument, options: TextOptions): string {
  return [...renderTextLines(documentStream(doc), options)].map((line) => `${line}\n`).join('');
}
