/**
 * The text of one resource, in Terraform's layout: a `# ADDRESS will be ...` line, the block
 * opened with the action symbol and the kind, one aligned line per attribute, unchanged
 * attributes counted instead of shown, a looked-up value's name beside it
 * (`"96683cc9126741d1" (San Francisco, CA)`), and `}`. Used by the plain text and, inside diff fences,
 * by the Markdown renderer, so both show resources identically.
 */
import { byWhom } from './attribution.js';
import type { DocumentAttributeChange, DocumentAttribution, DocumentResourceChange } from './document-types.js';
import { undeletableNoun } from './undeletable.js';
import { kindNoun } from './kind-noun.js';
import { HEADERS, padSymbol, paintSymbols, shownAction, SYMBOLS, type Shown } from './symbols.js';
import type { UnknownMask } from './unknowns.js';
import { displayName, formatAttributeValue, formatValue, KNOWN_AFTER_APPLY } from './values.js';

interface Line {
  symbol: string;
  name: string;
  text: string;
  note: string;
}

function reasonLine(rc: DocumentResourceChange, shown: Shown): string | undefined {
  if (rc.reason === 'import' && rc.id !== null) return `(imported from ${JSON.stringify(rc.id)})`;
  if (rc.reason === 'deleted_outside' && shown === 'create') return `(because it was deleted outside adsctl${byWhom(rc.attribution, 'DELETE')})`;
  if (rc.reason === 'removed' && shown === 'delete') return `(because ${rc.address} is not in the manifest)`;
  if (rc.reason === 'added_outside' && shown === 'delete') return `(because it was added outside adsctl${byWhom(rc.attribution, 'CREATE')}, and the manifest owns the collection)`;
  if (rc.reason === 'replace_parent') return '(because its parent must be replaced)';
  if (rc.deleted_with !== null) return `(deleted with ${rc.deleted_with}, no request of its own)`;
  return undefined;
}

/** The kind's noun when the API cannot delete objects of the kind (posts, media library items). */
/** The plural of a kind's noun: targeting criteria, promoted posts, line item curated categories. */
function pluralNoun(type: string): string {
  const noun = kindNoun(type);
  if (noun.endsWith('criterion')) return `${noun.slice(0, -'criterion'.length)}criteria`;
  if (noun.endsWith('y')) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

function listed(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]!}`;
}

/** How serving safety applies to the change, in words (docs/architecture.md, "Serving safety"). */
function servingLine(rc: DocumentResourceChange): string | undefined {
  const serving = rc.serving;
  if (serving === undefined) return undefined;
  const what = listed(serving.kinds.map(pluralNoun));
  switch (serving.how) {
    case 'created-paused':
      return `(created paused, activated after its ${what})`;
    case 'kept-paused':
      return `(kept paused until its ${what} are written, then activated)`;
    case 'atomic':
      return `(in one request with every other change of the ${what} of ${serving.parent ?? 'its parent'}, which keeps serving)`;
    case 'paused-for-change':
      return `(${serving.parent ?? 'its parent'} is paused while its ${what} change, then resumed)`;
  }
}

function undeletable(rc: DocumentResourceChange): string | undefined {
  return undeletableNoun(rc.type);
}

function blockName(rc: DocumentResourceChange): string {
  const last = /(?:\.([A-Za-z0-9_-]+)|\[("(?:[^"\\]|\\.)*")\])$/.exec(rc.address);
  // the account is named by its key; the one resource of a single collection (`do_not_reach`) by the collection
  const single = /^[A-Za-z_][A-Za-z0-9_]*$/.test(rc.address) && rc.address !== 'account' ? rc.address : undefined;
  const key = last?.[1] ?? single ?? (last?.[2] === undefined ? rc.account : (JSON.parse(last[2]) as string));
  return `${rc.type} ${JSON.stringify(key)}`;
}

/** One side of an attribute change: its known value and, when part of it is known only after apply, the mask. */
interface Side {
  value: unknown;
  unknown?: UnknownMask;
}

/** ` (San Francisco, CA)`: what the lookups call the value of `path`, or ''. */
const named = (names: Readonly<Record<string, string>> | undefined, path: string): string => {
  const name = names?.[path];
  return name === undefined ? '' : ` (${name})`;
};

function attributeLine(a: DocumentAttributeChange, currency: string | null, drift: 'mark' | 'reverse', attribution: readonly DocumentAttribution[] | undefined, names: Readonly<Record<string, string>> | undefined): Line {
  // the name is of the value the change leaves (its `after`), or of the one it removes
  const nameOf = (side: Side): string => (side.value !== null && side.value === (a.after ?? a.before) ? named(names, a.path) : '');
  const show = (side: Side, which: 'before' | 'after' = 'after'): string => formatAttributeValue(a.path, side.value, currency, side.unknown, which) + nameOf(side);
  const desired: Side = { value: a.after, unknown: a.after_unknown };
  // what changed outside adsctl runs from the value last applied, which is `after` unless the manifest moved too
  const [before, after]: [Side, Side] = drift === 'reverse' ? ['applied' in a ? { value: a.applied } : desired, { value: a.before }] : [{ value: a.before }, desired];
  // who made it, where the account history says (in the drift report only then: the report itself says it changed outside adsctl)
  const who = a.origin === 'drift' ? byWhom(attribution, 'UPDATE', a.path) : '';
  const outside = a.origin === 'drift' && (drift === 'mark' || who !== '') ? `(changed outside adsctl${who})` : '';
  const marks = [outside, drift === 'mark' && a.forces_replacement ? '# forces replacement' : ''];
  const note = marks.filter((m) => m !== '').join(' ');
  const name = displayName(a.path);
  const unset = (side: Side): boolean => side.value === null && side.unknown === undefined;
  if (unset(before)) return { symbol: '+', name, text: show(after), note };
  if (unset(after)) return { symbol: '-', name, text: `${show(before, 'before')} -> null`, note };
  return { symbol: '~', name, text: `${show(before, 'before')} -> ${show(after)}`, note };
}

/**
 * Every attribute of a created or destroyed object, those known only after apply (in `unknown`,
 * left out of `record`) included; a destroyed object's unset (null) ones are left out, as
 * Terraform does.
 */
function allAttributes(record: Record<string, unknown> | null, unknown: Readonly<Record<string, UnknownMask>>, symbol: '+' | '-', currency: string | null, names: Readonly<Record<string, string>> | undefined): Line[] {
  const paths = new Set([...Object.keys(record ?? {}), ...Object.keys(unknown)]);
  return [...paths]
    .map((path) => ({ path, value: record?.[path] ?? null, mask: unknown[path] }))
    .filter(({ value }) => symbol === '+' || value !== null)
    .map(({ path, value, mask }) => ({ symbol, name: displayName(path), text: formatAttributeValue(path, value, currency, mask) + (value === null ? '' : named(names, path)) + (symbol === '-' ? ' -> null' : ''), note: '' }))
    .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

function hiddenCount(rc: DocumentResourceChange, shownPaths: ReadonlySet<string>): number {
  const paths = new Set([...Object.keys(rc.change.before ?? {}), ...Object.keys(rc.change.after ?? {}), ...Object.keys(rc.change.after_unknown)]);
  return [...paths].filter((p) => !shownPaths.has(p)).length;
}

/** Lines of an in-place or replacing change: identity, the changed attributes, the hidden count. */
function changedAttributes(rc: DocumentResourceChange, attributes: readonly DocumentAttributeChange[], drift: 'mark' | 'reverse', replace: boolean): Line[] {
  const changed = attributes.map((a) => attributeLine(a, rc.currency, drift, rc.attribution, rc.value_names)).sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const shownPaths = new Set(attributes.map((a) => a.path));
  const lines: Line[] = [];
  if (rc.id !== null) lines.push(replace ? { symbol: '~', name: 'id', text: `${formatValue(rc.id)} -> ${KNOWN_AFTER_APPLY}`, note: '' } : { symbol: ' ', name: 'id', text: formatValue(rc.id), note: '' });
  const name = (rc.change.after ?? rc.change.before)?.['name'];
  if (name !== undefined && !shownPaths.has('name')) {
    lines.push({ symbol: ' ', name: 'name', text: formatValue(name), note: '' });
    shownPaths.add('name');
  }
  lines.push(...changed);
  const hidden = hiddenCount(rc, shownPaths);
  if (hidden > 0) lines.push({ symbol: ' ', name: '', text: `# (${hidden} unchanged attribute${hidden === 1 ? '' : 's'} hidden)`, note: '' });
  return lines;
}

function block(header: string, extra: readonly string[], symbol: string, rc: DocumentResourceChange, lines: readonly Line[], color: boolean): string[] {
  const width = Math.max(0, ...lines.filter((l) => l.name !== '').map((l) => l.name.length));
  const body = lines.map((l) => {
    const prefix = `    ${paintSymbols(padSymbol(l.symbol), color)} `;
    const text = l.name === '' ? l.text : `${l.name.padEnd(width)} = ${l.text}`;
    return `${prefix}${text}${l.note === '' ? '' : ` ${l.note}`}`;
  });
  return [`  # ${header}`, ...extra.map((e) => `  # ${e}`), `${paintSymbols(padSymbol(symbol), color)} ${blockName(rc)} {`, ...body, '    }'];
}

/**
 * The lines of a planned change, attributes marked when they drifted or force a replacement; a
 * released object gets a line saying adsctl stops managing it; any other no-op gets none.
 */
export function actionBlock(rc: DocumentResourceChange, color: boolean): string[] {
  const shown = shownAction(rc.change.actions);
  if (shown === 'noop') {
    if (rc.reason === 'import') return [`  # ${rc.address} will be imported from ${JSON.stringify(rc.id)}, with no changes`];
    if (rc.reason !== 'released') return [];
    const noun = undeletable(rc);
    return [`  # ${rc.address} will no longer be managed by adsctl`, noun === undefined ? '  # (the object is left in place)' : `  # (the ${noun} stays on the service: the API cannot delete it)`];
  }
  let lines: Line[];
  if (shown === 'create') {
    lines = [{ symbol: '+', name: 'id', text: KNOWN_AFTER_APPLY, note: '' }, ...allAttributes(rc.change.after, rc.change.after_unknown, '+', rc.currency, rc.value_names)];
  } else if (shown === 'delete') {
    lines = [...(rc.id === null ? [] : [{ symbol: '-', name: 'id', text: `${formatValue(rc.id)} -> null`, note: '' }]), ...allAttributes(rc.change.before, {}, '-', rc.currency, rc.value_names)];
  } else {
    lines = changedAttributes(rc, rc.change.attributes, 'mark', shown === 'replace');
  }
  const noun = shown === 'replace' ? undeletable(rc) : undefined;
  const extra = [
    reasonLine(rc, shown),
    servingLine(rc),
    noun === undefined ? undefined : `(a new ${noun} is created; the old one stays on the service, because the API cannot delete it)`,
    rc.protected && (shown === 'delete' || shown === 'replace') ? '(protected by prevent_destroy)' : undefined,
  ];
  return block(`${rc.address} ${HEADERS[shown]}`, extra.filter((e) => e !== undefined), SYMBOLS[shown], rc, lines, color);
}

/**
 * The lines of a resource changed outside adsctl, as Terraform's drift report shows them: from
 * the value last applied to the live value. An attribute of origin `drift` has a manifest value
 * equal to the one last applied, so its `after` is the old value and its `before` the new one.
 */
export function driftBlock(rc: DocumentResourceChange, color: boolean): string[] {
  if (rc.reason === 'deleted_outside') {
    const who = byWhom(rc.attribution, 'DELETE');
    if (rc.id === null) return [`  # ${rc.address} has been deleted`, ...(who === '' ? [] : [`  # (deleted outside adsctl${who})`])];
    return block(`${rc.address} has been deleted`, who === '' ? [] : [`(deleted outside adsctl${who})`], '-', rc, [{ symbol: '-', name: 'id', text: `${formatValue(rc.id)} -> null`, note: '' }], color);
  }
  if (rc.reason === 'added_outside') {
    const who = byWhom(rc.attribution, 'CREATE');
    return block(`${rc.address} has been added outside adsctl`, who === '' ? [] : [`(added outside adsctl${who})`], '+', rc, [{ symbol: '+', name: 'id', text: `null -> ${formatValue(rc.id)}`, note: '' }], color);
  }
  const drifted = rc.change.attributes.filter((a) => a.origin === 'drift');
  return block(`${rc.address} has changed`, [], '~', rc, changedAttributes(rc, drifted, 'reverse', false), color);
}
