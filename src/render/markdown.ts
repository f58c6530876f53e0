/**
 * The plan as a pull-request comment: a heading, the outcome line, what serves with no creative
 * (without-creative.ts), the violations of the guardrails of adsctl.yaml (guardrails.ts), a
 * summary table per account
 * (add, change, destroy, drift, spend), diagnostics, the objects changed outside adsctl, those
 * not managed by adsctl with their daily budgets (unmanaged.ts), then a
 * collapsible section per account (and per campaign when an account's section is large) holding
 * the text plan in ```diff fences, symbols moved to the first column so GitHub colours them.
 * The comment stays under 60,000 characters; when cut, it keeps the summary and the sections
 * that fit and ends with a note saying what was left out.
 */
import { formatDiagnostic, type SourceTexts } from '../diag/format.js';
import { formatAddress, parseAddress } from '../manifest/address.js';
import { writeCapped, type Piece } from './capped-writer.js';
import type { DocumentAccount, DocumentResourceChange, DocumentSummary, PlanDocument } from './document-types.js';
import { accountTitle, accountViews, countChanges, documentDiagnostics, errorCount, failedLine, hasPlanned, isAction, noChangesLine, refactorLines } from './document-views.js';
import { blockingCount, guardrailFailedLine, guardrailMarkdownLines } from './guardrails.js';
import { actionBlock, driftBlock } from './resource-block.js';
import { planCountsLine, requestsAndSpendLine, spendPhrase } from './summaries.js';
import { unmanagedMarkdown } from './unmanaged.js';
import { unmanagedChildrenMarkdown } from './unmanaged-children.js';
import { WITHOUT_CREATIVE_HEADING, withoutCreativeEntries } from './without-creative.js';

/** Comments are kept strictly under this many characters. */
export const MARKDOWN_LIMIT = 60_000;
const NOTE_RESERVE = 600;
/** The summary table's account rows stop here, so the head always fits with room for sections. */
const TABLE_LIMIT = 20_000;
/** An account section longer than this is split into a section per campaign. */
const SPLIT_ACCOUNT_AT = 10_000;

/** Extra inputs of the Markdown renderer: manifest texts for the source lines under diagnostics. */
interface MarkdownOptions {
  sources?: SourceTexts;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text for a table cell or a heading: HTML and the Markdown characters that would format it escaped. */
export function escapeCell(text: string): string {
  return escapeHtml(text).replace(/([\\`*_[\]|])/g, '\\$1');
}

/** A text plan line for a diff fence: the leading symbol to column one, `~` as `!` (GitHub's "changed" colour). */
function diffLine(line: string): string {
  const m = /^(\s*)(-\/\+|[+~-])( .*)?$/.exec(line);
  if (m === null) return line;
  return `${m[2] === '~' ? '!' : (m[2] ?? '')}${m[1] ?? ''}${m[3] ?? ''}`;
}

function fenceFor(texts: readonly string[]): string {
  const longest = Math.max(2, ...texts.flatMap((t) => (t.match(/`+/g) ?? []).map((run) => run.length)));
  return '`'.repeat(longest + 1);
}

/** A fenced section of blocks, as pieces. */
function fenced(opening: string, closing: string, lang: string, blocks: readonly string[], category: string): Piece[] {
  const fence = fenceFor(blocks);
  return [
    { type: 'open', text: `${opening}${fence}${lang}\n`, close: `${fence}\n${closing}` },
    ...blocks.map((text, i): Piece => ({ type: 'block', text: `${i === 0 ? '' : '\n'}${text}`, category })),
    { type: 'close' },
  ];
}

function counts(changes: readonly DocumentResourceChange[]): string {
  const s = countChanges(changes);
  return `${s.add} to add, ${s.change} to change, ${s.destroy} to destroy`;
}

function details(summary: string): string {
  return `<details><summary>${escapeHtml(summary)}</summary>\n\n`;
}

/** Campaigns by their own address; every other resource by its top-level collection. */
function groupOf(rc: DocumentResourceChange): string {
  const step = parseAddress(rc.address).value?.steps[0];
  if (step === undefined) return rc.address;
  return step.collection === 'campaigns' ? formatAddress({ kind: 'campaign', steps: [step] }) : step.collection;
}

function blockText(rc: DocumentResourceChange, render: (rc: DocumentResourceChange, color: boolean) => string[]): string {
  return `${render(rc, false).map(diffLine).join('\n')}\n`;
}

function accountPieces(account: DocumentAccount, actions: readonly DocumentResourceChange[], refactored: readonly string[]): Piece[] {
  const title = `${accountTitle(account)}: ${counts(actions)}`;
  const blocks = actions.map((rc) => blockText(rc, actionBlock));
  if (refactored.length > 0) return fenced(details(title), '\n</details>\n\n', 'diff', [`${refactored.join('\n')}\n`, ...blocks], 'action');
  const groups = new Map<string, { changes: DocumentResourceChange[]; blocks: string[] }>();
  actions.forEach((rc, i) => {
    const group = groups.get(groupOf(rc)) ?? { changes: [], blocks: [] };
    group.changes.push(rc);
    group.blocks.push(blocks[i] ?? '');
    groups.set(groupOf(rc), group);
  });
  const size = blocks.reduce((n, b) => n + b.length, 0);
  if (size <= SPLIT_ACCOUNT_AT || groups.size === 1) return fenced(details(title), '\n</details>\n\n', 'diff', blocks, 'action');
  const inner = [...groups].flatMap(([name, g]) => fenced(details(`${name}: ${counts(g.changes)}`), '\n</details>\n\n', 'diff', g.blocks, 'action'));
  return [{ type: 'open', text: details(title), close: '</details>\n\n' }, ...inner, { type: 'close' }];
}

function head(doc: PlanDocument): string {
  const errors = errorCount(doc);
  const blocking = blockingCount(doc);
  const outcome = errors > 0 ? failedLine(errors) : blocking > 0 ? guardrailFailedLine(blocking) : hasPlanned(doc) ? planCountsLine(doc.summary) : noChangesLine(doc);
  const row = (name: string, s: DocumentSummary, spend: string): string => `| ${name} | ${s.add} | ${s.change} | ${s.destroy} | ${s.drift} | ${spend} |`;
  const rows: string[] = [];
  let size = 0;
  for (const a of doc.accounts) {
    const line = row(escapeCell(`${a.key} (${a.endpoint})`), a.summary, escapeCell(spendPhrase(a.spend)));
    size += line.length + 1;
    if (size > TABLE_LIMIT) {
      rows.push(`| and ${doc.accounts.length - rows.length} more accounts, in the full plan artifact | | | | | |`);
      break;
    }
    rows.push(line);
  }
  if (doc.accounts.length > 1) rows.push(row('**Total**', doc.summary, escapeCell(spendPhrase(doc.spend))));
  const withoutCreative = withoutCreativeEntries(doc).map((e) => `> **${WITHOUT_CREATIVE_HEADING}:** in account ${escapeCell(e.account)}, ${escapeCell(e.phrase)}, before any other write.\n`);
  return [
    `## adsctl ${doc.mode === 'destroy' ? 'destroy plan' : 'plan'}`,
    '',
    `**${outcome}**`,
    '',
    ...withoutCreative,
    ...guardrailMarkdownLines(doc),
    '| Account | Add | Change | Destroy | Drift | Spend |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    escapeCell(requestsAndSpendLine(doc.requests, doc.spend)),
    '',
    '',
  ].join('\n');
}

function note(leftOut: Record<string, number>, doc: PlanDocument): string {
  const actions = leftOut['action'] ?? 0;
  const total = doc.resource_changes.filter(isAction).length;
  const also = [
    leftOut['drift'] === undefined ? '' : `${leftOut['drift']} of the objects changed outside adsctl`,
    leftOut['diagnostic'] === undefined ? '' : `${leftOut['diagnostic']} diagnostics`,
    leftOut['unmanaged'] === undefined ? '' : `${leftOut['unmanaged']} of the objects not managed by adsctl`,
  ].filter((s) => s !== '');
  const extra = also.length === 0 ? '' : ` Also left out: ${also.join(', ')}.`;
  return `> **This comment was cut to stay under ${MARKDOWN_LIMIT} characters:** ${actions} of ${total} resources were left out.${extra} \`adsctl show PLANFILE\` renders the complete plan from the file saved with \`plan --out\` (in CI, the plan artifact).\n`;
}

/** Renders the plan document as a Markdown pull-request comment of fewer than `MARKDOWN_LIMIT` characters. */
export function renderMarkdown(doc: PlanDocument, options: MarkdownOptions = {}): string {
  const pieces: Piece[] = [];
  const diagnostics = documentDiagnostics(doc).map((d) => `${formatDiagnostic(d, options.sources ?? new Map())}\n`);
  if (diagnostics.length > 0) pieces.push(...fenced('### Diagnostics\n\n', '\n', 'text', diagnostics, 'diagnostic'));
  const views = accountViews(doc);
  const drifted = views.flatMap((v) => v.changes.filter((c) => c.drift).map((c, i) => `${i === 0 ? `${accountTitle(v.account)}:\n\n` : ''}${blockText(c, driftBlock)}`));
  if (drifted.length > 0) pieces.push(...fenced('### Objects changed outside adsctl\n\n', '\n', 'diff', drifted, 'drift'));
  pieces.push(...unmanagedMarkdown(doc));
  pieces.push(...unmanagedChildrenMarkdown(doc));
  for (const view of views) {
    const actions = view.changes.filter(isAction);
    const refactored = refactorLines(doc, view.account.key);
    if (actions.length > 0 || refactored.length > 0) pieces.push(...accountPieces(view.account, actions, refactored));
  }
  const capped = writeCapped(head(doc), pieces, MARKDOWN_LIMIT, NOTE_RESERVE);
  const body = Object.keys(capped.leftOut).length === 0 ? capped.text : `${capped.text}${note(capped.leftOut, doc)}`;
  return `${body.trimEnd()}\n`;
}
