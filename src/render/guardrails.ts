/**
 * Guardrail violations in human output (docs/manifest.md, "Guardrails"), from the plan document:
 * the list every format shows together (rule, address, value, limit, and whether it stops the
 * plan, warns, or was lifted by `--allow`), the marks on the offending lines of the text plan,
 * and the Markdown table a pull-request comment opens with.
 */
import type { DocumentGuardrail, PlanDocument, PlanDocumentHead } from './document-types.js';
import { displayName } from './values.js';

/** How a violation weighs: it stops the plan, it warns, or `--allow` lifted its rule. */
function status(g: DocumentGuardrail): 'error' | 'warning' | 'allowed' {
  if (g.allowed) return 'allowed';
  return g.enforcement === 'mandatory' ? 'error' : 'warning';
}

/** The violations that stop the plan: mandatory, not lifted. */
export function blockingCount(doc: PlanDocumentHead): number {
  return doc.guardrails.filter((g) => status(g) === 'error').length;
}

/** `Planning failed: 2 mandatory guardrails violated. This plan cannot be applied.` */
export function guardrailFailedLine(count: number): string {
  return `Planning failed: ${count} mandatory guardrail${count === 1 ? '' : 's'} of adsctl.yaml violated. This plan cannot be applied.`;
}

/** `Apply refused by guardrails: 1 mandatory guardrail of adsctl.yaml violated. Nothing was applied.`: a saved plan checked again at apply. */
export function guardrailRefusedLine(count: number): string {
  return `Apply refused by guardrails: ${count} mandatory guardrail${count === 1 ? '' : 's'} of adsctl.yaml violated. Nothing was applied.`;
}

/** The value in words: the attribute's short name first, when the rule is about one. */
function valueText(g: DocumentGuardrail): string {
  return g.attribute === null ? g.value : `${displayName(g.attribute)} = ${g.value}`;
}

function note(g: DocumentGuardrail): string {
  if (g.allowed) return ` (lifted by --allow ${g.rule})`;
  return g.enforcement === 'advisory' ? ' (advisory)' : '';
}

/** `--allow max_bid, --allow names` */
const allowFlags = (rules: readonly string[]): string => rules.map((r) => `--allow ${r}`).join(', ');

/**
 * The text section: every violation on one aligned line (status, rule, address, value, limit),
 * and the rules lifted for the run; empty when there is neither.
 */
export function guardrailTextLines(doc: PlanDocumentHead): string[] {
  const lifted = doc.guardrails_allowed ?? [];
  if (doc.guardrails.length === 0 && lifted.length === 0) return [];
  const rows = doc.guardrails.map((g) => [status(g), g.rule, g.address, valueText(g), `limit ${g.limit}${note(g)}`]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => `  ${r.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join('  ')}`);
  return [
    'Guardrails of adsctl.yaml:',
    '',
    ...(lines.length === 0 ? ['  no violations'] : lines),
    ...(lifted.length === 0 ? [] : ['', `Lifted for this run: ${allowFlags(lifted)}.`]),
  ];
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The text block of one resource with its violations marked: a `# guardrail ...` line under its
 * heading for each, and `<- RULE` after the attribute line at fault.
 */
export function markedBlock(block: readonly string[], violations: readonly DocumentGuardrail[]): string[] {
  if (violations.length === 0 || block.length === 0) return [...block];
  const lines = [...block];
  for (const g of violations) {
    if (g.attribute === null) continue;
    const line = new RegExp(`^ {4}.{0,24}? ${escapeRegExp(displayName(g.attribute))} *= `);
    const i = lines.findIndex((l) => line.test(l));
    if (i >= 0) lines[i] = `${lines[i]!}  <- ${g.rule}`;
  }
  const notes = violations.map((g) => `  # guardrail ${g.rule} (${status(g) === 'error' ? 'mandatory' : status(g) === 'warning' ? 'advisory' : 'lifted by --allow'}): ${valueText(g)}, limit ${g.limit}`);
  const heading = lines.findIndex((l) => !l.startsWith('  #'));
  const at = heading < 0 ? lines.length : heading;
  return [...lines.slice(0, at), ...notes, ...lines.slice(at)];
}

const cell = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/([\\`*_[\]|])/g, '\\$1');

/** The Markdown section a comment opens with: a table of the violations and the rules lifted; empty when there is neither. */
export function guardrailMarkdownLines(doc: PlanDocument): string[] {
  const lifted = doc.guardrails_allowed ?? [];
  if (doc.guardrails.length === 0 && lifted.length === 0) return [];
  const word = { error: '**mandatory**', warning: 'advisory', allowed: 'allowed' } as const;
  const rows = doc.guardrails.map((g) => `| ${word[status(g)]} | ${cell(g.rule)} | ${cell(g.address)} | ${cell(valueText(g))} | ${cell(g.limit)} |`);
  return [
    '### Guardrails',
    '',
    ...(rows.length === 0 ? ['No violations.'] : ['| | Rule | Address | Value | Limit |', '| --- | --- | --- | --- | --- |', ...rows]),
    ...(lifted.length === 0 ? [] : ['', `Lifted for this run: ${lifted.map((r) => `\`--allow ${r}\``).join(', ')}.`]),
    '',
    '',
  ];
}
