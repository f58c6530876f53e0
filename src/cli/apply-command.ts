/**
 * `adsctl apply [PATH | PLANFILE]`: with a manifest path, plans, shows the plan, asks for `yes`
 * (or takes `--auto-approve`; without a terminal it refuses) and applies. With a saved plan, it
 * re-reads only the objects the plan touches and refuses, naming them, if any moved or the state
 * changed since; a saved plan never prompts. Either way it ends with `Apply complete!` only when
 * every operation succeeded; otherwise with every error and `Apply failed: ...` on stderr, exit 1.
 * With `--refresh-only` it sends nothing: it accepts what changed outside adsctl into the state
 * (apply-refresh-only.ts); a saved plan is refused then.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { ApiError } from '../api/errors.js';
import { hasErrors } from '../diag/diagnostic.js';
import { formatDiagnostics } from '../diag/format.js';
import { decodePlanFile, isPlanFile } from '../plan/plan-file.js';
import { renderApplyOutcome, renderGuardrails } from '../render/render.js';
import type { Plan } from '../plan/types.js';
import { blockingViolations, guardPlan } from '../engine/guardrails.js';
import { readRunGuardrails } from './guardrails.js';
import { colorChoice } from './color.js';
import { applyRefreshOnly } from './apply-refresh-only.js';
import { applyAndReport, planThenApply } from './execute.js';
import type { Io, SetExit } from './io.js';
import { runOptions, withRunOptions, type RunFlags } from './run-options.js';
import { savedPlanRoot } from './root.js';
import { startRun, startSavedRun } from './run-start.js';
import { openSessions } from './session.js';
import { staleObjects } from '../engine/stale.js';
import { staleRefusal } from './stale.js';

interface ApplyFlags extends RunFlags {
  autoApprove?: boolean;
  refreshOnly?: boolean;
}

function readPlanFile(path: string): string | undefined {
  if (!existsSync(path) || !statSync(path).isFile()) return undefined;
  const text = readFileSync(path, 'utf8');
  return isPlanFile(text) ? text : undefined;
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
      const saved = readPlanFile(path);
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
      if (!(error instanceof ApiError)) throw error;
      io.err(`Error: ${error.describe()}\n`);
      setExit(1);
    }
  });
}

/**
 * A saved plan held to the guardrails in force where it is applied (each account's root's
 * adsctl.yaml now, not when the plan was made), with the rules lifted when it was made and by
 * this run's `--allow`. Says what they find on stderr; false when a mandatory one refuses it,
 * before anything is opened or sent.
 */
function guardSaved(io: Io, plan: Plan, roots: ReadonlyArray<string | undefined>, allow: readonly string[] | undefined): boolean {
  const sources = new Map<string, string>();
  const rootOf = new Map(plan.accounts.map((a, i) => [a.account, roots[i]]));
  const read = readRunGuardrails(new Map(roots.flatMap((r) => (r === undefined ? [] : [[r, undefined] as const]))), [...(plan.allowed ?? []), ...(allow ?? [])], sources);
  if (read.diagnostics.length > 0) {
    io.err(formatDiagnostics(read.diagnostics, sources));
    return false;
  }
  guardPlan(plan, read.guardrails, io.clock.now(), (a) => rootOf.get(a.account));
  if ((plan.guardrails?.length ?? 0) > 0 || plan.allowed !== undefined) io.err(renderGuardrails(plan, 'apply'));
  return blockingViolations(plan).length === 0;
}

async function applySaved(io: Io, path: string, text: string, flags: ApplyFlags, setExit: (code: number) => void, tty: boolean): Promise<void> {
  const plan = decodePlanFile(text);
  if (typeof plan === 'string') {
    io.err(`Error: ${path}: ${plan}\n`);
    setExit(1);
    return;
  }
  if (hasErrors(plan.diagnostics)) {
    io.err(`Error: ${path}: the saved plan has errors and cannot be applied\n`);
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
  if (!guardSaved(io, plan, roots, flags.allow)) return setExit(1);
  startSavedRun(roots.filter((r): r is string => r !== undefined));
  const sessions = await openSessions(
    plan.accounts.map((a, i) => ({ key: a.account, root: roots[i]!, endpoint: a.endpoint, ...(a.accountId === undefined ? {} : { accountId: a.accountId }) })),
    { io, run: runOptions(flags, io), operation: 'apply', debug: flags.debug === true },
  );
  if (sessions.diagnostics.length > 0) {
    io.err(formatDiagnostics(sessions.diagnostics, new Map()));
    setExit(1);
    return;
  }
  try {
    const stale = await staleObjects(plan, sessions.sessions);
    if (stale.length > 0) {
      io.err(staleRefusal(stale, plan));
      setExit(1);
      return;
    }
    await applyAndReport(io, plan, sessions.sessions, { verb: 'apply', summary: renderApplyOutcome, tty }, setExit);
  } finally {
    await sessions.close();
  }
}
