/**
 * What opens the text and Markdown plans when something serves with no creative though the
 * manifest gives it some (docs/architecture.md, "Serving safety"): the document's
 * `serving_without_creative` entries, each with the creatives the apply adds to it before any
 * other write. Rendered from the plan document only; nothing when it lists none.
 */
import type { DocumentWithoutCreative, PlanDocumentHead } from './document-types.js';
import { accountLabel, accountTitle } from './document-views.js';

/** The section's heading. */
export const WITHOUT_CREATIVE_HEADING = 'Serving without a creative';

/** Why an object is in the section and what the apply does about it. */
const WHY = 'an apply was stopped between removing their old creatives and adding the new ones';

/** `promoted_posts["1"]` for a creative under the object at `parent`; the whole address otherwise. */
const under = (parent: string, address: string): string => (address.startsWith(`${parent}.`) ? address.slice(parent.length + 1) : address);

/** `campaigns.c.line_items.l (line item 1fx2): the apply adds promoted_posts["1"] first`. */
function withoutCreativePhrase(e: DocumentWithoutCreative): string {
  return `${e.address} (${e.type.replace(/_/g, ' ')} ${e.id}) serves with no creative: the apply adds ${e.repaired_by.map((a) => under(e.address, a)).join(', ')} first`;
}

/** The text section, or no lines when nothing serves without a creative. */
export function withoutCreativeTextLines(doc: PlanDocumentHead): string[] {
  const list = doc.serving_without_creative ?? [];
  if (list.length === 0) return [];
  const lines = [WITHOUT_CREATIVE_HEADING, '', `These serve with no creative, though the manifest gives them some (${WHY}).`, 'The apply adds their creatives before any other write of their account.', ''];
  for (const account of doc.accounts) {
    const entries = list.filter((e) => e.account === account.key);
    if (entries.length === 0) continue;
    lines.push(`${accountTitle(account)}:`, '', ...entries.map((e) => `  ${withoutCreativePhrase(e)}`), '');
  }
  return lines.slice(0, -1);
}

/** Each entry as the Markdown plan's head tells it: the phrase, and the account it is in. */
export function withoutCreativeEntries(doc: PlanDocumentHead): Array<{ phrase: string; account: string }> {
  return (doc.serving_without_creative ?? []).map((e) => {
    const account = doc.accounts.find((a) => a.key === e.account);
    return { phrase: withoutCreativePhrase(e), account: account === undefined ? e.account : accountLabel(account) };
  });
}
