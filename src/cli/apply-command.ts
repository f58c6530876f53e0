/**
 * `adsctl apply [PATH | PLANFILE]`: with a manifest path, plans, shows the plan, asks for `yes`
 * (or takes `--auto-approve`; without a terminal it refuses) and applies. With a saved plan, it
 * re-reads only the objects the plan touches and refuses, naming them, if any moved or the state
 * changed since; a saved plan never prompts.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { ApiError } from '../api/errors.js';
import { hasErrors } from '../diag/diagnostic.js';
import { formatDiagnostics } from '../diag/format.js';
import { decodePlanFile, isPlanFile } from '../plan/plan-file.js';
import { renderApplySummary, renderPlan } from '../render/render.js';
import { confirm, executePlan } from './execute.js';
import type { Io } from './io.js';
import { hasChanges, preparePlan, useColor } from './prepare.js';
import { withRunOptions, type RunFlags } from './run-options.js';
import { openSessions, workDirOf } from './session.js';
import { staleObjects } from './stale.js';

interface ApplyFlags extends RunFlags {
  autoApprove?: boolean;
}

function readPlanFile(path: string): string | undefined {
  if (!existsSync(path) || !statSync(path).isFile()) return undefined;
  const text = readFileSync(path, 'utf8');
  return isPlanFile(text) ? text : undefined;
}

export function registerApply(program: Command, io: Io, setExit: (code: number) => void, tty: boolean): void {
  withRunOptions(
    program
      .command('apply')
      .description('make the live accounts match the manifests (or apply a saved plan)')
      .argument('[path]', 'a manifest file, a directory of manifests, or a plan saved with plan --out', '.')
      .option('--auto-approve', 'apply without asking for confirmation'),
  ).action(async (path: string, flags: ApplyFlags) => {
    try {
      const saved = readPlanFile(path);
      if (saved !== undefined) await applySaved(io, path, saved, flags, setExit, tty);
      else await applyFresh(io, path, flags, setExit, tty);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      io.err(`Error: ${error.describe()}\n`);
      setExit(1);
    }
  });
}

async function applyFresh(io: Io, path: string, flags: ApplyFlags, setExit: (code: number) => void, tty: boolean): Promise<void> {
  const prepared = await preparePlan(io, path, flags, 'plan', 'apply');
  if (!prepared.ok) {
    io.err(formatDiagnostics(prepared.diagnostics, prepared.sources));
    setExit(1);
    return;
  }
  const { plan, sessions, sources, workDir } = prepared.value;
  try {
    io.out(renderPlan(plan, 'text', { color: useColor(io, flags.color, tty), sources }));
    if (hasErrors(plan.diagnostics)) {
      setExit(1);
      return;
    }
    if (hasChanges(plan)) {
      const answer = await confirm(io, flags.autoApprove === true, 'Do you want to perform these actions?');
      if (answer !== 'yes') {
        io.err(answer === 'not-interactive' ? 'Error: apply needs confirmation: run it in a terminal, or pass --auto-approve\n' : 'Apply cancelled.\n');
        setExit(1);
        return;
      }
    }
    const result = await executePlan(io, plan, sessions.sessions, workDir, tty);
    io.out(`\n${renderApplySummary(result)}\n`);
    setExit(result.errors.length > 0 ? 1 : 0);
  } finally {
    await sessions.close();
  }
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
  const workDir = workDirOf(path);
  const sessions = await openSessions(
    plan.accounts.map((a) => ({ key: a.account, endpoint: a.endpoint, ...(a.accountId === undefined ? {} : { accountId: a.accountId }) })),
    { io, workDir, parallelism: flags.parallelism, lockTimeoutMs: flags.lockTimeout, operation: 'apply', debug: flags.debug === true },
  );
  if (sessions.diagnostics.length > 0) {
    io.err(formatDiagnostics(sessions.diagnostics, new Map()));
    setExit(1);
    return;
  }
  try {
    const stale = await staleObjects(plan, sessions.sessions);
    if (stale.length > 0) {
      io.err(`Error: the saved plan is stale; these changed since it was made:\n${stale.map((s) => `  - ${s}\n`).join('')}Run adsctl plan again.\n`);
      setExit(1);
      return;
    }
    const result = await executePlan(io, plan, sessions.sessions, workDir, tty);
    io.out(`${renderApplySummary(result)}\n`);
    setExit(result.errors.length > 0 ? 1 : 0);
  } finally {
    await sessions.close();
  }
}
