/**
 * `adsctl completion bash|zsh`: prints the shell completion script, written from the commands as
 * they are defined (every command's module is loaded for it, so the script can never list an
 * option the command does not take). `source <(adsctl completion bash)` enables it in a shell.
 */
import { Argument, Command } from 'commander';
import { bashScript, zshScript, type Candidate, type CompletionNode } from './completion-scripts.js';
import type { Io, SetExit } from './io.js';
import type { LazyCommand } from './lazy-command.js';

const SHELLS = ['bash', 'zsh'] as const;

/** The whole command tree of `commands`, every command's module loaded, writing nowhere. */
async function fullProgram(io: Io, commands: readonly LazyCommand[]): Promise<Command> {
  const program = new Command('adsctl').option('-V, --version', 'output the version number');
  const quiet: Io = { ...io, out: () => {}, err: () => {} };
  for (const command of commands) {
    if (program.commands.some((c) => c.name() === command.name)) continue;
    (await command.load())(program, quiet, () => {});
  }
  return program;
}

const optionCandidates = (cmd: Command): Candidate[] => [
  ...cmd.options.filter((o) => o.long !== undefined && !o.hidden).map((o) => ({ word: o.long!, summary: o.description })),
  { word: '--help', summary: 'display help for command' },
];

/** What may follow each command of `program`, from the top level down. */
function completionNodes(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (cmd: Command, key: string): void => {
    const subcommands = cmd.commands.map((c) => ({ word: c.name(), summary: c.description() }));
    if (key === '') subcommands.push({ word: 'help', summary: 'display help for a command' });
    const choices = (cmd.registeredArguments[0]?.argChoices ?? []).map((word) => ({ word, summary: '' }));
    const group = subcommands.length > 0;
    nodes.push({ key, words: group ? subcommands : choices, group, options: optionCandidates(cmd) });
    for (const sub of cmd.commands) visit(sub, key === '' ? sub.name() : `${key} ${sub.name()}`);
  };
  visit(program, '');
  return nodes;
}

/** Adds `completion` to the program. */
export function registerCompletion(program: Command, io: Io, setExit: SetExit, commands: readonly LazyCommand[]): void {
  program
    .command('completion')
    .description('print a shell completion script for bash or zsh')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .action(async (shell: (typeof SHELLS)[number]) => {
      const nodes = completionNodes(await fullProgram(io, commands));
      io.out(shell === 'bash' ? bashScript(nodes) : zshScript(nodes));
      setExit(0);
    });
}
