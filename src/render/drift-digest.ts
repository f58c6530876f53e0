/**
 * The drift digest that ends `plan --refresh-only` (README, "Drift"): the accounts with drift, and
 * per account what changed outside adsctl (digest-entries.ts), who changed it where the plan
 * document carries its attribution, and the daily spend it moved (the refresh-only document's
 * per-account `spend`, src/plan/drift-spend.ts). In text, a section after the drift report; with
 * `--markdown`, the whole output: one issue body for a scheduled drift job, kept under the
 * comment limit of the Markdown plan by leaving out whole entries (capped-writer.ts) and saying
 * how many. Rendered from the plan document only.
 */
import { formatDiagnostic, type SourceTexts } from '../diag/format.js';
import { writeCapped, type Piece } from './capped-writer.js';
import { digestAccounts, type DigestAccount, type DigestEntry } from './digest-entries.js';
import type { DocumentSpend, PlanDocument } from './document-types.js';
import { accountTitle, documentDiagnostics, errorCount, failedLine } from './document-views.js';
import { escapeCell, MARKDOWN_LIMIT } from './markdown.js';
import { paintSymbols } from './symbols.js';
import { unmanagedMarkdown } from './unmanaged.js';
import { formatSignedMoney } from './values.js';

/** How the digest is rendered: ANSI colour of the text symbols; manifest texts for diagnostics in Markdown. */
interface DigestOptions {
  color?: boolean;
  sources?: SourceTexts;
}

const NOTE_RESERVE = 600;
/** The table's account rows stop here, so the head always fits with room for the entries. */
const TABLE_LIMIT = 20_000;
/** People named in an account's row; the rest are counted. */
const NAMED_PEOPLE = 3;

/** `+5.00 USD/day; -3.00 EUR/day`: per currency, the serving spend the drift moved where it says, else the daily budgets; `none` when nothing moved. */
function dailySpend(spend: readonly DocumentSpend[], none = 'unchanged'): string {
  // what serves, where the drift moved it (an activation or a pause by hand); else the budgets as written
  const daily = (s: DocumentSpend): number => (s.serving_daily_after_micros !== undefined && s.serving_daily_before_micros !== undefined ? s.serving_daily_after_micros - s.serving_daily_before_micros : s.daily_micros);
  const moved = spend.filter((s) => daily(s) !== 0);
  return moved.length === 0 ? none : moved.map((s) => `${formatSignedMoney(daily(s), s.currency)}/day`).join('; ');
}

/** `1 changed, 2 appeared`: the counts that are not zero. */
function countsPhrase(a: DigestAccount): string {
  return [a.changed === 0 ? '' : `${a.changed} changed`, a.deleted === 0 ? '' : `${a.deleted} deleted`, a.appeared === 0 ? '' : `${a.appeared} appeared`].filter((s) => s !== '').join(', ');
}

/** `@anna (user 1), user 2 and 3 more`; in Markdown each name in a code span, so a screen name mentions nobody on the forge. */
function peoplePhrase(people: readonly string[], markdown = false): string {
  const named = people.slice(0, NAMED_PEOPLE).map((p) => (markdown ? `\`${p.replace(/`/g, "'")}\`` : p));
  const rest = people.length - named.length;
  return `${named.join(', ')}${rest === 0 ? '' : ` and ${rest} more`}`;
}

function headline(accounts: readonly DigestAccount[], doc: PlanDocument): string {
  const of = `${accounts.length} of ${doc.accounts.length} account${doc.accounts.length === 1 ? '' : 's'}`;
  return `${of} changed outside adsctl since the last apply.`;
}

function accountLine(a: DigestAccount): string {
  const by = a.changedBy.length === 0 ? '' : `; changed by ${peoplePhrase(a.changedBy)}`;
  return `${accountTitle(a.account)}: ${countsPhrase(a)}; daily spend ${dailySpend(a.account.spend)}${by}`;
}

function renderText(doc: PlanDocument, color: boolean): string {
  const accounts = digestAccounts(doc);
  if (accounts.length === 0) return '';
  const lines = [`Drift digest: ${headline(accounts, doc)}`];
  for (const a of accounts) lines.push('', accountLine(a), ...a.entries.map((e) => `  ${paintSymbols(e.symbol, color)} ${e.text}`));
  lines.push('', `Daily spend moved outside adsctl: ${dailySpend(doc.spend, 'none')}.`);
  return `${lines.join('\n')}\n`;
}

/** An entry in a diff fence: `~` as `!`, GitHub's "changed" colour. */
function diffLine(e: DigestEntry): string {
  return `${e.symbol === '~' ? '!' : e.symbol} ${e.text}\n`;
}

function fenceFor(texts: readonly string[]): string {
  const longest = Math.max(2, ...texts.flatMap((t) => (t.match(/`+/g) ?? []).map((run) => run.length)));
  return '`'.repeat(longest + 1);
}

function table(accounts: readonly DigestAccount[], doc: PlanDocument): string[] {
  const rows: string[] = [];
  let size = 0;
  for (const a of accounts) {
    const row = `| ${escapeCell(`${a.account.key} (${a.account.endpoint})`)} | ${a.changed} | ${a.deleted} | ${a.appeared} | ${escapeCell(dailySpend(a.account.spend))} | ${peoplePhrase(a.changedBy, true)} |`;
    size += row.length + 1;
    if (size > TABLE_LIMIT) {
      rows.push(`| and ${accounts.length - rows.length} more accounts with drift, in \`adsctl plan --refresh-only\` | | | | | |`);
      break;
    }
    rows.push(row);
  }
  const sum = (f: (a: DigestAccount) => number): number => accounts.reduce((n, a) => n + f(a), 0);
  if (accounts.length > 1) rows.push(`| **Total** | ${sum((a) => a.changed)} | ${sum((a) => a.deleted)} | ${sum((a) => a.appeared)} | ${escapeCell(dailySpend(doc.spend))} | |`);
  return ['| Account | Changed | Deleted | Appeared | Daily spend moved | Changed by |', '| --- | ---: | ---: | ---: | --- | --- |', ...rows];
}

function head(accounts: readonly DigestAccount[], doc: PlanDocument): string {
  const errors = errorCount(doc);
  const outcome = errors > 0 ? failedLine(errors) : accounts.length === 0 ? `No drift: nothing changed outside adsctl in the ${doc.accounts.length} account${doc.accounts.length === 1 ? '' : 's'} since the last apply.` : headline(accounts, doc);
  const lines = ['## adsctl drift report', '', `**${outcome}**`, ''];
  if (accounts.length > 0) {
    lines.push(...table(accounts, doc), '', 'This is a refresh-only plan: adsctl changed nothing. Keep a change by writing it into the manifest, or undo it with `adsctl apply`.', '');
  }
  return `${lines.join('\n')}\n`;
}

/** An account's entries as a diff fence under its heading, an entry a block. */
function accountPieces(a: DigestAccount): Piece[] {
  const lines = a.entries.map(diffLine);
  const fence = fenceFor(lines);
  const title = `### ${escapeCell(accountTitle(a.account))}\n\n${escapeCell(`${countsPhrase(a)}; daily spend ${dailySpend(a.account.spend)}`)}\n\n`;
  return [{ type: 'open', text: `${title}${fence}diff\n`, close: `${fence}\n\n` }, ...lines.map((text): Piece => ({ type: 'block', text, category: 'entry' })), { type: 'close' }];
}

function note(leftOut: Record<string, number>, accounts: readonly DigestAccount[]): string {
  const entries = leftOut['entry'] ?? 0;
  const total = accounts.reduce((n, a) => n + a.entries.length, 0);
  // entries are kept in order, so those left out are the last ones
  let kept = total - entries;
  const unseen = accounts.filter((a) => {
    const shown = Math.min(kept, a.entries.length);
    kept -= shown;
    return shown === 0;
  }).length;
  const parts = [
    entries === 0 ? '' : `${entries} of the ${total} changes outside adsctl${unseen === 0 ? '' : ` (every change of ${unseen} of the ${accounts.length} accounts with drift)`}`,
    leftOut['unmanaged'] === undefined ? '' : `${leftOut['unmanaged']} of the objects not managed by adsctl`,
    leftOut['diagnostic'] === undefined ? '' : `${leftOut['diagnostic']} diagnostics`,
  ].filter((s) => s !== '');
  return `> **This report was cut to stay under ${MARKDOWN_LIMIT} characters.** Left out: ${parts.join('; ')}. \`adsctl plan --refresh-only\` lists every one.\n`;
}

function renderMarkdown(doc: PlanDocument, sources: SourceTexts): string {
  const accounts = digestAccounts(doc);
  const pieces: Piece[] = accounts.flatMap(accountPieces);
  pieces.push(...unmanagedMarkdown(doc));
  const diagnostics = documentDiagnostics(doc).map((d) => `${formatDiagnostic(d, sources)}\n`);
  if (diagnostics.length > 0) {
    const fence = fenceFor(diagnostics);
    pieces.push({ type: 'open', text: `### Diagnostics\n\n${fence}text\n`, close: `${fence}\n\n` }, ...diagnostics.map((text, i): Piece => ({ type: 'block', text: `${i === 0 ? '' : '\n'}${text}`, category: 'diagnostic' })), { type: 'close' });
  }
  const capped = writeCapped(head(accounts, doc), pieces, MARKDOWN_LIMIT, NOTE_RESERVE);
  const body = Object.keys(capped.leftOut).length === 0 ? capped.text : `${capped.text}${note(capped.leftOut, accounts)}`;
  return `${body.trimEnd()}\n`;
}

/**
 * The digest of a refresh-only plan document. `text`: the section that ends the refresh-only
 * text, empty when nothing changed outside adsctl. `markdown`: the issue body, always (saying so
 * when there is no drift), fewer than `MARKDOWN_LIMIT` characters.
 */
export function renderDriftDigest(doc: PlanDocument, format: 'text' | 'markdown', options: DigestOptions = {}): string {
  return format === 'text' ? renderText(doc, options.color ?? false) : renderMarkdown(doc, options.sources ?? new Map());
}
