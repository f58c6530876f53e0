/**
 * `adsctl plan [PATH]`: refresh, diff and plan every account of the manifests, print the plan as
 * text (or `--json`, `--markdown`), save it with `--out`. With `--detailed-exitcode`: 0 no
 * changes, 2 changes present, 1 error. `--destroy` plans what `adsctl destroy` would do (and can
 * be saved for `apply PLANFILE`); `--refresh-only` shows only what changed outside adsctl, plans
 * no write, and with `--detailed-exitcode` exits 2 only for such drift.
 */
import { Option, type Command } from 'commander';
import { hasErrors } from '../diag/diagnostic.js';
import { formatDiagnostics } from '../diag/format.js';
import { savePlan } from '../engine/saved-plan.js';
import { hasDrift, renderRefreshOnly } from '../render/refresh-only.js';
import { renderGuardrails, renderPlanPieces } from '../render/render.js';
import { blockingViolations } from '../engine/guardrails.js';
import { colorChoice, useColor } from './color.js';
import type { Io, SetExit } from './io.js';
import { hasChanges } from '../engine/has-changes.js';
import { prepareOrReport } from './prepare.js';
import { withRunOptions, type RunFlags } from './run-options.js';
import { startRun } from './run-start.js';

interface PlanFlags extends RunFlags {
  out?: string;
  detailedExitcode?: boolean;
  json?: boolean;
  markdown?: boolean;
  destroy?: boolean;
  refreshOnly?: boolean;
}

/** Adds `plan` to the program. */
export function registerPlan(program: Command, io: Io, setExit: SetExit): void {
  withRunOptions(
    program
      .command('plan')
      .description('show what apply would change in the live accounts')
      .argument('[path]', 'a manifest file or a directory of manifests', '.')
      .option('--out <file>', 'save the plan for a later `adsctl apply FILE`')
      .option('--detailed-exitcode', 'exit 0 when nothing would change, 2 when something would')
      .option('--json', 'print the plan as JSON')
      .option('--markdown', 'print the plan as Markdown for a pull-request comment')
      .option('--destroy', 'plan what adsctl destroy would delete (Terraform: plan -destroy)')
      .addOption(new Option('--refresh-only', 'show only what changed outside adsctl; plan no writes').conflicts(['destroy', 'out'])),
  ).action(async (path: string, flags: PlanFlags, cmd: Command) => {
    startRun(path);
    const prepared = await prepareOrReport(io, path, flags, flags.destroy === true ? 'destroy' : 'plan', 'plan', setExit);
    if (prepared === undefined) return;
    const { plan, sessions, sources } = prepared;
    await sessions.close();
    const format = flags.json === true ? 'json' : flags.markdown === true ? 'markdown' : 'text';
    const options = { color: useColor(colorChoice(cmd), io.env, io.stdoutTty), sources };
    if (flags.refreshOnly === true) io.out(renderRefreshOnly(plan, format, options));
    else for (const piece of renderPlanPieces(plan, format, options)) io.out(piece);
    if (hasErrors(plan.diagnostics)) {
      if (format !== 'text') io.err(formatDiagnostics(plan.diagnostics, sources));
      setExit(1);
      return;
    }
    // a mandatory guardrail not lifted stops the plan; a refresh-only plan writes nothing to hold back
    const blocking = flags.refreshOnly === true ? [] : blockingViolations(plan);
    if (blocking.length > 0) {
      if (format !== 'text') io.err(renderGuardrails(plan));
      setExit(1);
      return;
    }
    if (flags.out !== undefined) savePlan(flags.out, plan, io.clock.now());
    const changed = flags.refreshOnly === true ? hasDrift(plan) : hasChanges(plan);
    setExit(flags.detailedExitcode === true && changed ? 2 : 0);
  });
}
