/**
 * `adsctl apply [PATH | PLANFILE]`: with a manifest path, plans, shows the plan, asks for `yes`
 * (or takes `--auto-approve`; without a terminal it refuses) and applies. With a saved plan, it
 * re-reads only the objects the plan touches and refuses, naming them, if any moved or the state
 * changed since; a saved plan never prompts. Either way it ends with `Apply complete!` only when
 * every operation succeeded; otherwise with every error and `Apply failed: ...` on stderr, exit 1.
 * With `--refresh-only` it sends nothing: it accepts what changed outside adsctl into the state
 * (apply-refresh-only.ts); a saved plan is refused then.
 */
import type { Command } from 'commander';
import { formatDiagnostics } from '../diag/format.js';
import { renderApplyOutcome, renderGuardrails } from '../render/render.js';
import { failureMessage } from '../engine/failure.js';
import { blockingViolations } from '../engine/guardrails.js';
import { guardSavedPlan, openSavedPlan, planToApply, savedPlanText } from '../engine/saved-plan.js';
import { colorChoice } from './color.js';
import { applyRefreshOnly } from './apply-refresh-only.js';
import { applyAndReport, planThenApply } from './execute.js';
import type { Io, SetExit } from './io.js';
import { runOptions, withRunOptions, type RunFlags } from './run-options.js';
import { savedPlanRoot } from './root.js';
import { startRun, startSavedRun } from './run-start.js';
import { exitOnInterrupt } from './interrupt.js';
import { accountEnvironment } from './session.js';
import { staleRefusal } from './stale.js';

interface ApplyFlags extends RunFlags {
  autoApprove?: boolean;
  refreshOnly?: boolean;
}

/** Adds `apply` to the program. */
export function registerApply(program: Command, io: Io, setExit: SetExit): void {
  const tty = io.stdoutTty;
  withRunOptions(
    program
      .command('apply')
      .description('make the live accounts match the manifests (or apply a saved plan)')
      .argument('[path]', 'a manifest file, a directory of manifests, or a plan saved with plan --out', '.')
      .option('--auto-approve', 'apply without asking for confirmation')
      .option('--refresh-only', 'accept what changed outside adsctl into the state; send nothing to the service'),
  ).action(async (path: string, options: ApplyFlags, cmd: Command) => {
    const flags: ApplyFlags = { ...options, colorChoice: colorChoice(cmd) };
    try {
      const saved = savedPlanText(path);
      if (saved !== undefined && flags.refreshOnly === true) {
        io.err(`Error: ${path} is a saved plan, and apply --refresh-only applies none: it reads the live accounts itself. Run adsctl apply --refresh-only with the manifests' file or directory.\n`);
        return setExit(1);
      }
      if (saved !== undefined) return await applySaved(io, path, saved, flags, setExit, tty);
      if (flags.refreshOnly === true) {
        startRun(path);
        return await applyRefreshOnly(io, path, flags, setExit, tty);
      }
      startRun(path);
      await planThenApply(io, path, flags, { mode: 'plan', question: 'Do you want to perform these actions?', verb: 'apply', summary: renderApplyOutcome }, setExit, tty);
    } catch (error) {
      const message = failureMessage(error, 'apply');
      if (message === undefined) throw error;
      io.err(`Error: ${message}\n`);
      setExit(1);
    }
  });
}

/**
 * `apply PLANFILE`: the saved plan held to the guardrails in force here (src/engine/saved-plan.ts),
 * its accounts opened, refused when anything it touches moved since it was made, else applied.
 */
async function applySaved(io: Io, path: string, text: string, flags: ApplyFlags, setExit: (code: number) => void, tty: boolean): Promise<void> {
  const plan = planToApply(text);
  if (typeof plan === 'string') {
    io.err(`Error: ${path}: ${plan}\n`);
    setExit(1);
    return;
  }
  const roots = plan.accounts.map((a) => savedPlanRoot(a, path));
  const lost = plan.accounts.find((_, i) => roots[i] === undefined);
  if (lost !== undefined) {
    io.err(`Error: ${path}: the manifests of account ${lost.account} were in ${lost.rootFromPlanFile ?? lost.root ?? '?'} (relative to the plan file) or ${lost.root ?? '?'}, and neither exists here; apply the plan from a checkout of the same repository\n`);
    setExit(1);
    return;
  }
  const guarded = guardSavedPlan(plan, roots, flags.allow, io.clock.now());
  if (guarded.diagnostics.length > 0) {
    io.err(formatDiagnostics(guarded.diagnostics, guarded.sources));
    return setExit(1);
  }
  if ((plan.guardrails?.length ?? 0) > 0 || plan.allowed !== undefined) io.err(renderGuardrails(plan, 'apply'));
  if (blockingViolations(plan).length > 0) return setExit(1);
  const found = roots.filter((r): r is string => r !== undefined);
  startSavedRun(found);
  // from here on a run holds locks: a signal releases them before it ends the process
  exitOnInterrupt((text) => io.err(text));
  const opened = await openSavedPlan(plan, found, accountEnvironment(io, flags.debug === true), runOptions(flags, io));
  if ('diagnostics' in opened) {
    io.err(formatDiagnostics(opened.diagnostics, new Map()));
    setExit(1);
    return;
  }
  try {
    if (opened.stale.length > 0) {
      io.err(staleRefusal(opened.stale, plan));
      setExit(1);
      return;
    }
    await applyAndReport(io, plan, opened.sessions.sessions, { verb: 'apply', summary: renderApplyOutcome, tty }, setExit);
  } finally {
    await opened.sessions.close();
  }
}
