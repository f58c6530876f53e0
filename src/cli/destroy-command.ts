/**
 * `adsctl destroy [PATH]`: deletes everything the state manages for the manifests' accounts,
 * children first, batched, honouring protection. Sandbox-only objects (accounts, funding
 * instruments, features) are deleted only on sandbox and local endpoints and only when adsctl
 * created them; otherwise destroy stops managing them and leaves them in place.
 */
import type { Command } from 'commander';
import { ApiError } from '../api/errors.js';
import { hasErrors } from '../diag/diagnostic.js';
import { formatDiagnostics } from '../diag/format.js';
import { renderDestroySummary, renderPlan } from '../render/render.js';
import { confirm, executePlan } from './execute.js';
import type { Io } from './io.js';
import { hasChanges, preparePlan, useColor } from './prepare.js';
import { withRunOptions, type RunFlags } from './run-options.js';

interface DestroyFlags extends RunFlags {
  autoApprove?: boolean;
}

export function registerDestroy(program: Command, io: Io, setExit: (code: number) => void, tty: boolean): void {
  withRunOptions(
    program
      .command('destroy')
      .description('delete everything the state manages for these manifests')
      .argument('[path]', 'a manifest file or a directory of manifests', '.')
      .option('--auto-approve', 'destroy without asking for confirmation'),
  ).action(async (path: string, flags: DestroyFlags) => {
    let prepared;
    try {
      prepared = await preparePlan(io, path, flags, 'destroy', 'destroy');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      io.err(`Error: ${error.describe()}\n`);
      setExit(1);
      return;
    }
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
        const answer = await confirm(io, flags.autoApprove === true, 'Do you really want to destroy all resources the state manages for these manifests?');
        if (answer !== 'yes') {
          io.err(answer === 'not-interactive' ? 'Error: destroy needs confirmation: run it in a terminal, or pass --auto-approve\n' : 'Destroy cancelled.\n');
          setExit(1);
          return;
        }
      }
      const result = await executePlan(io, plan, sessions.sessions, workDir, tty);
      io.out(`\n${renderDestroySummary(result)}\n`);
      setExit(result.errors.length > 0 ? 1 : 0);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      io.err(`Error: ${error.describe()}\n`);
      setExit(1);
    } finally {
      await sessions.close();
    }
  });
}
