/**
 * The render stage's entry function (docs/architecture.md): Plan → text, Markdown or JSON. Every format goes
 * through the same JSON plan document, so what a person reads and what a tool parses never
 * disagree. Pure: no I/O, no clock, no environment; `NO_COLOR` and terminals are the CLI's affair.
 * The apply and destroy outcomes are exported from here too, so the CLI needs only this module.
 */
import type { SourceTexts } from '../diag/format.js';
import type { Plan } from '../plan/types.js';
import { blockingCount, guardrailFailedLine, guardrailRefusedLine, guardrailTextLines } from './guardrails.js';
import { renderMarkdown } from './markdown.js';
import { planToDocument, streamPlanDocument } from './plan-document.js';
import { jsonPieces } from './plan-json.js';
import { renderTextLines } from './text.js';

/** What `apply` and `destroy` print when they end, in Terraform's words (see apply-outcome.ts). */
export { renderApplyOutcome, renderDestroyOutcome, renderInterrupted } from './apply-outcome.js';

/**
 * The violations of the guardrails of adsctl.yaml on their own (guardrails.ts), for stderr: beside
 * a JSON or Markdown plan (`plan`), and when a saved plan is checked again at `apply`. Ends, when a
 * mandatory one stops it, with the `Planning failed` line of a plan, or the `Apply refused by
 * guardrails` line of a saved plan's apply.
 */
export function renderGuardrails(plan: Plan, when: 'plan' | 'apply' = 'plan'): string {
  const doc = planToDocument({ ...plan, accounts: [] });
  const blocking = blockingCount(doc);
  const refusal = when === 'apply' ? guardrailRefusedLine(blocking) : guardrailFailedLine(blocking);
  return `${[...guardrailTextLines(doc), ...(blocking === 0 ? [] : ['', refusal])].join('\n')}\n`;
}

/** The output formats of `plan`: text (default), `--markdown`, `--json`. */
export type PlanFormat = 'text' | 'markdown' | 'json';

/** Options of `renderPlan`: ANSI colour for text (off by default) and manifest texts for diagnostics. */
export interface RenderOptions {
  color?: boolean;
  sources?: SourceTexts;
}

/** The size a piece of `renderPlanPieces` grows to before it is handed on, in code units. */
const PIECE = 1 << 20;

/** Lines, each with its newline, gathered into pieces of about PIECE. */
function* gathered(lines: Iterable<string>): Generator<string> {
  let parts: string[] = [];
  let size = 0;
  for (const line of lines) {
    parts.push(line, '\n');
    size += line.length + 1;
    if (size >= PIECE) {
      yield parts.join('');
      parts = [];
      size = 0;
    }
  }
  if (parts.length > 0) yield parts.join('');
}

/**
 * Renders a plan as consecutive pieces of about 1 MB, each made when the one before has been taken:
 * a caller that writes each as it comes never holds the whole text, nor the document of every
 * change beside it. The pieces joined are what `renderPlan` returns.
 */
export function renderPlanPieces(plan: Plan, format: PlanFormat, options: RenderOptions = {}): Iterable<string> {
  const sources = options.sources ?? new Map<string, string>();
  switch (format) {
    case 'json':
      return gathered(jsonPieces(streamPlanDocument(plan)));
    case 'markdown':
      return [renderMarkdown(planToDocument(plan, { shownOnly: true }), { sources })];
    case 'text':
      return gathered(renderTextLines(streamPlanDocument(plan, { shownOnly: true }), { color: options.color ?? false, sources }));
  }
}

/**
 * Renders a plan. JSON is the document of docs/architecture.md (`schemas/plan.schema.json`), indented by
 * two spaces; every format ends with a newline.
 */
export function renderPlan(plan: Plan, format: PlanFormat, options: RenderOptions = {}): string {
  return [...renderPlanPieces(plan, format, options)].join('');
}
