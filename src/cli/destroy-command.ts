/**
 * `adsctl destroy [PATH]`: deletes everything the state manages for the manifests' accounts,
 * children first, batched, honouring protection. Sandbox-only objects (accounts, funding
 * instruments, features) are deleted only on sandbox and local endpoints and only when adsctl
 * created them; otherwise destroy stops managing them and leaves them in place. It ends with
 * `Destroy complete!` only when every deletion succeeded; otherwise with every error and
 * `Destroy failed: ...` on stderr, exit 1.
 */
import type { Command } from 'commander';
import { renderDestroyOutcome } from '../render/render.js';
import { colorChoice } from './color.js';
import { planThenApply } from './execute.js';
import type { Io, SetExit } from './io.js';
import { withRunOptions, type RunFlags } from './run-options.js';
import { startRun } from './run-start.js';

/** Adds `destroy` to the program. */
export function registerDestroy(program: Command, io: Io, setExit: SetExit): void {
  withRunOptions(
    program
      .command('destroy')
      .description('delete everything the state manages for these manifests')
      .argument('[path]', 'a manifest file or a directory of manifests', '.')
      .option('--auto-approve', 'destroy without asking for confirmation'),
  ).action(async (path: string, flags: RunFlags & { autoApprove?: boolean }, cmd: Command) => {
    startRun(path);
    await planThenApply(
      io,
      path,
      { ...flags, colorChoice: colorChoice(cmd) },
      { mode: 'destroy', question: 'Do you really want to destroy all resources the state manages for these manifests?', verb: 'destroy', summary: renderDestroyOutcome },
      setExit,
      io.stdoutTty,
    );
  });
}
