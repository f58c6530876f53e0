/**
 * The `Not managed by adsctl` section of the text and Markdown plans: the document's `unmanaged`
 * objects per account, each with its name, status, whether it serves (docs/manifest.md, "Spend": an
 * ACTIVE line item under a paused campaign is dormant) and daily budget (exact, in its currency),
 * the ones that appeared since the last apply marked, and what to do about them. Rendered from the
 * plan document only; empty when the document lists none.
 */
import { formatMicros } from '../manifest/money.js';
import { byWhom } from './attribution.js';
import type { Piece } from './capped-writer.js';
import type { DocumentAccount, DocumentUnmanaged, PlanDocument, PlanDocumentHead } from './document-types.js';
import { accountTitle } from './document-views.js';

/** The section's heading, in the contract's words (docs/architecture.md, "Contracts the code relies on"). */
const UNMANAGED_HEADING = 'Not managed by adsctl';

/** What to do about objects that appeared since the last apply. */
const ADVICE = 'adopt them into a manifest with `adsctl generate` or `adsctl import`, or delete them';

/** The objects of each account that lists any, accounts in document order. */
function byAccount(doc: PlanDocumentHead): Array<{ account: DocumentAccount; objects: DocumentUnmanaged[] }> {
  const list = doc.unmanaged ?? [];
  return doc.accounts.map((account) => ({ account, objects: list.filter((u) => u.account === account.key) })).filter((a) => a.objects.length > 0);
}

/** `campaign "Hand made" (id 8fx2a)`, and the managed parent of a child. */
export function objectPhrase(u: Pick<DocumentUnmanaged, 'type' | 'name' | 'id'> & { parent_address: string | null }): string {
  const within = u.parent_address === null ? '' : ` in ${u.parent_address}`;
  return `${u.type.replace(/_/g, ' ')} ${JSON.stringify(u.name ?? '')} (id ${u.id})${within}`;
}

/** `ACTIVE, serving`, `ACTIVE, dormant`, `PAUSED`: its status, and whether it serves where the status alone does not say. */
export function statusPhrase(u: Pick<DocumentUnmanaged, 'serving' | 'entity_status'>): string {
  if (u.serving) return `${u.entity_status ?? 'no status'}, serving`;
  return u.entity_status === 'ACTIVE' ? 'ACTIVE, dormant' : (u.entity_status ?? 'no status');
}

/** `500.00 USD`, or `none`. */
export function dailyBudget(u: Pick<DocumentUnmanaged, 'daily_budget_amount_local_micro' | 'currency'>): string {
  return u.daily_budget_amount_local_micro === null ? 'none' : `${formatMicros(u.daily_budget_amount_local_micro, u.currency)} ${u.currency}`;
}

/** ` (made outside adsctl by user ID at TIME)` from the account history, or ''. */
function madeBy(u: DocumentUnmanaged): string {
  const who = byWhom(u.attribution, 'CREATE');
  return who === '' ? '' : ` (made outside adsctl${who})`;
}

/** `N of these appeared ...: adopt ... or delete them.`, or that none is new. */
function adviceLine(objects: readonly DocumentUnmanaged[]): string {
  const fresh = objects.filter((u) => u.drift).length;
  if (fresh === 0) return `None of these is new since the last apply. To manage them, ${ADVICE}.`;
  const which = fresh === objects.length ? (fresh === 1 ? 'This object appeared' : 'These objects appeared') : `${fresh} of these appeared`;
  return `${which} since the last apply, outside adsctl: ${ADVICE}. (\`unmanaged: ignore\` in a manifest stops this report for its account.)`;
}

/** The text section, or no lines when nothing is listed. */
export function unmanagedTextLines(doc: PlanDocumentHead): string[] {
  const accounts = byAccount(doc);
  if (accounts.length === 0) return [];
  const lines = [UNMANAGED_HEADING, '', 'These campaigns and line items are in the accounts without adsctl managing them; those that serve spend:', ''];
  for (const { account, objects } of accounts) {
    lines.push(`${accountTitle(account)}:`, '');
    for (const u of objects) lines.push(`  ${objectPhrase(u)}: ${statusPhrase(u)}, daily budget ${dailyBudget(u)}${u.drift ? `, new since the last apply${madeBy(u)}` : ''}`);
    lines.push('');
  }
  lines.push(adviceLine(accounts.flatMap((a) => a.objects)));
  return lines;
}

function cell(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/([\\`*_[\]|])/g, '\\$1');
}

/** `520.00 USD; 10.00 EUR`: the daily budgets of the objects that serve, per currency. */
function servingSpend(objects: readonly DocumentUnmanaged[]): string {
  const sums = new Map<string, number>();
  for (const u of objects) {
    if (!u.serving || u.daily_budget_amount_local_micro === null) continue;
    sums.set(u.currency, (sums.get(u.currency) ?? 0) + u.daily_budget_amount_local_micro);
  }
  if (sums.size === 0) return 'none';
  return [...sums.keys()].sort().map((c) => `${formatMicros(sums.get(c) ?? 0, c)} ${c}/day`).join('; ');
}

/**
 * The Markdown section as capped pieces (a row a block, so a long list is cut, not dropped whole):
 * a table with each object's daily budget, then the spend of those that serve and what to do; none when
 * nothing is listed.
 */
export function unmanagedMarkdown(doc: PlanDocument): Piece[] {
  const accounts = byAccount(doc);
  if (accounts.length === 0) return [];
  const rows = accounts.flatMap(({ account, objects }) =>
    objects.map((u): Piece => ({
      type: 'block',
      text: `| ${cell(`${account.key} (${account.endpoint})`)} | ${cell(objectPhrase(u))} | ${cell(statusPhrase(u))} | ${cell(dailyBudget(u))} | ${u.drift ? `**new**${cell(madeBy(u))}` : 'seen at the last apply'} |\n`,
      category: 'unmanaged',
    })),
  );
  const all = accounts.flatMap((a) => a.objects);
  const open = [`### ${UNMANAGED_HEADING}`, '', '| Account | Object | Status | Daily budget | Since the last apply |', '| --- | --- | --- | ---: | --- |', ''].join('\n');
  const close = ['', `Spend not managed by adsctl (daily budgets of the ones that serve): ${cell(servingSpend(all))}.`, '', adviceLine(all), '', ''].join('\n');
  return [{ type: 'open', text: open, close }, ...rows, { type: 'close' }];
}
