/**
 * What the drift digest says (drift-digest.ts), read from a refresh-only plan document only: per
 * account with drift, one entry per object changed outside adsctl — fields changed by hand, an
 * object deleted by hand, one added by hand to an owned collection, an object not managed by
 * adsctl that appeared — each with who changed it when the document carries its attribution, and
 * the account's spend as the document gives it. Text and Markdown both render these entries, so
 * they say the same, and what they say is in the JSON plan.
 */
import type { DocumentAccount, DocumentAttribution, DocumentAttributeChange, DocumentResourceChange, DocumentUnmanaged, PlanDocument } from './document-types.js';
import { byWhom } from './attribution.js';
import { accountViews } from './document-views.js';
import { dailyBudget, objectPhrase, statusPhrase } from './unmanaged.js';
import { displayName, formatAttributeValue } from './values.js';

/** One object changed outside adsctl: `~` fields changed, `-` deleted, `+` added or appeared; `text` without the symbol. */
export interface DigestEntry {
  symbol: '~' | '-' | '+';
  text: string;
}

/** One account with drift: its entries, their counts, and who made them (distinct, in entry order). */
export interface DigestAccount {
  account: DocumentAccount;
  changed: number;
  deleted: number;
  appeared: number;
  changedBy: string[];
  entries: DigestEntry[];
}

/** A value longer than this is not quoted in the digest, only its field named (the plan shows it whole). */
const LONGEST_VALUE = 48;

/** `@anna (user 756201191646691328)` or `user 756201191646691328`, as attribution.ts names a user; undefined when the history does not say. */
function who(a: DocumentAttribution): string | undefined {
  if (a.user_id === null) return undefined;
  return a.screen_name === undefined ? `user ${a.user_id}` : `@${a.screen_name} (user ${a.user_id})`;
}

/** `daily_budget 10.00 USD -> 5.00 USD`: from the value last applied to the live one, as the drift report shows it. */
function fieldPhrase(a: DocumentAttributeChange, currency: string | null): string {
  const from = formatAttributeValue(a.path, 'applied' in a ? a.applied : a.after, currency, undefined, 'before');
  const to = formatAttributeValue(a.path, a.before, currency);
  const name = displayName(a.path);
  return from.length > LONGEST_VALUE || to.length > LONGEST_VALUE ? `${name} changed` : `${name} ${from} -> ${to}`;
}

/**
 * The fields changed by hand, each with the change that made it as the plan names it
 * (attribution.ts), or, when one change made them all, that change once at the end.
 */
function fieldsPhrase(rc: DocumentResourceChange): string {
  const drifted = rc.change.attributes.filter((a) => a.origin === 'drift');
  if (drifted.length === 0) return `changed outside adsctl${byWhom(rc.attribution, 'UPDATE')}`;
  const by = drifted.map((a) => byWhom(rc.attribution, 'UPDATE', a.path));
  const fields = drifted.map((a) => fieldPhrase(a, rc.currency));
  if (by.every((b) => b === by[0])) return `${fields.join(', ')}${by[0] ?? ''}`;
  return fields.map((f, i) => `${f}${by[i] ?? ''}`).join(', ');
}

function changeEntry(rc: DocumentResourceChange): DigestEntry {
  if (rc.reason === 'deleted_outside') return { symbol: '-', text: `${rc.address}: deleted outside adsctl${byWhom(rc.attribution, 'DELETE')}` };
  if (rc.reason === 'added_outside') return { symbol: '+', text: `${rc.address} (id ${rc.id ?? 'unknown'}): added outside adsctl${byWhom(rc.attribution, 'CREATE')}` };
  return { symbol: '~', text: `${rc.address}: ${fieldsPhrase(rc)}` };
}

function appearedEntry(u: DocumentUnmanaged): DigestEntry {
  const by = byWhom(u.attribution, 'CREATE');
  return { symbol: '+', text: `${objectPhrase(u)}: ${statusPhrase(u)}, daily budget ${dailyBudget(u)}, not managed by adsctl${by === '' ? '' : `, made${by}`}` };
}

/** The accounts of `doc` with drift, in document order; none when nothing changed outside adsctl. */
export function digestAccounts(doc: PlanDocument): DigestAccount[] {
  const appeared = (doc.unmanaged ?? []).filter((u) => u.drift);
  return accountViews(doc)
    .map(({ account, changes }): DigestAccount => {
      const drifted = changes.filter((c) => c.drift);
      const fresh = appeared.filter((u) => u.account === account.key);
      const people = [...drifted, ...fresh].flatMap((c) => (c.attribution ?? []).flatMap((a) => who(a) ?? []));
      return {
        account,
        changed: drifted.filter((c) => c.reason !== 'deleted_outside' && c.reason !== 'added_outside').length,
        deleted: drifted.filter((c) => c.reason === 'deleted_outside').length,
        appeared: drifted.filter((c) => c.reason === 'added_outside').length + fresh.length,
        changedBy: [...new Set(people)],
        entries: [...drifted.map(changeEntry), ...fresh.map(appearedEntry)],
      };
    })
    .filter((a) => a.entries.length > 0);
}
