/**
 * The section of the text and Markdown plans that names the objects adsctl does not manage under
 * one the plan deletes (a line item made by hand in a campaign a destroy deletes), each with what
 * the deletion does to it: it goes with its parent, or stays under a deleted parent that no later
 * plan reads, so it would vanish from every report. Rendered from the plan document only; empty
 * when the document lists none.
 */
import { isResourceKind, KINDS } from '../kinds/registry.js';
import type { Piece } from './capped-writer.js';
import type { DocumentAccount, DocumentUnmanagedChild, PlanDocumentHead } from './document-types.js';
import { accountTitle } from './document-views.js';
import { dailyBudget, objectPhrase, statusPhrase } from './unmanaged.js';

const HEADING = 'Not managed by adsctl, under what this plan deletes';

/** What to do about one that stays, before the plan is applied. */
const ADVICE =
  'An object that stays is left under a deleted parent, which no later plan reads: to have it deleted as well, delete it first, or adopt it into the manifest (`adsctl generate --merge` or `adsctl import`) and plan again.';

const vowel = (word: string): boolean => /^[aeiou]/i.test(word);

/** `a campaign's line items`: the parent kind's noun and the kind's plural. */
function ofParent(type: string): string {
  if (!isResourceKind(type)) return `its ${type.replace(/_/g, ' ')}s`;
  const parent = KINDS[type].parent;
  const noun = parent === undefined ? 'parent' : KINDS[parent].noun;
  return `${vowel(noun) ? 'an' : 'a'} ${noun}'s ${KINDS[type].noun}s`;
}

/** `stays when campaigns.launch is deleted (the service does not delete a campaign's line items with it)`, or `goes with ...`. */
function withParentPhrase(c: DocumentUnmanagedChild): string {
  return c.with_parent === 'goes'
    ? `goes with ${c.parent_address} (the service deletes ${ofParent(c.type)} with it)`
    : `stays when ${c.parent_address} is deleted (the service does not delete ${ofParent(c.type)} with it)`;
}

/** The objects of each account that lists any, accounts in document order. */
function byAccount(doc: PlanDocumentHead): Array<{ account: DocumentAccount; objects: DocumentUnmanagedChild[] }> {
  const list = doc.unmanaged_children ?? [];
  return doc.accounts.map((account) => ({ account, objects: list.filter((c) => c.account === account.key) })).filter((a) => a.objects.length > 0);
}

/** The text section, or no lines when nothing is listed. */
export function unmanagedChildrenTextLines(doc: PlanDocumentHead): string[] {
  const accounts = byAccount(doc);
  if (accounts.length === 0) return [];
  const lines = [HEADING, '', 'These objects are under what this plan deletes, without adsctl managing them:', ''];
  for (const { account, objects } of accounts) {
    lines.push(`${accountTitle(account)}:`, '');
    for (const c of objects) lines.push(`  ${objectPhrase(c)}: ${statusPhrase(c)}, daily budget ${dailyBudget(c)}; ${withParentPhrase(c)}`);
    lines.push('');
  }
  if (accounts.some((a) => a.objects.some((c) => c.with_parent === 'stays'))) lines.push(ADVICE);
  else lines.pop();
  return lines;
}

function cell(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/([\\`*_[\]|])/g, '\\$1');
}

/** The Markdown section as capped pieces, a row a block; none when nothing is listed. */
export function unmanagedChildrenMarkdown(doc: PlanDocumentHead): Piece[] {
  const accounts = byAccount(doc);
  if (accounts.length === 0) return [];
  const rows = accounts.flatMap(({ account, objects }) =>
    objects.map((c): Piece => ({
      type: 'block',
      text: `| ${cell(`${account.key} (${account.endpoint})`)} | ${cell(objectPhrase(c))} | ${cell(statusPhrase(c))} | ${cell(dailyBudget(c))} | ${cell(withParentPhrase(c))} |\n`,
      category: 'unmanaged',
    })),
  );
  const stays = accounts.some((a) => a.objects.some((c) => c.with_parent === 'stays'));
  const open = [`### ${HEADING}`, '', '| Account | Object | Status | Daily budget | When its parent is deleted |', '| --- | --- | --- | ---: | --- |', ''].join('\n');
  const close = ['', ...(stays ? [ADVICE, ''] : []), ''].join('\n');
  return [{ type: 'open', text: open, close }, ...rows, { type: 'close' }];
}
