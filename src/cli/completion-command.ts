/**
 * `adsctl completion bash|zsh|fish`: prints the shell completion script, written from the
 * commands as they are defined (every command's module is loaded for it, so the script can never
 * list an option the command does not take). `source <(adsctl completion bash)` enables it in a
 * shell, and `source <(npx adsctl completion bash)` in a clone after `npm ci`, where adsctl is not
 * on PATH: the scripts complete `npx adsctl ...` too (completion-scripts.ts). The scripts ask
 * `adsctl completion addresses` (not listed in help) for the resource addresses of the current
 * directory where a command takes one.
 */
import { fileURLToPath } from 'node:url';
import { Argument, Command, Help, type Option } from 'commander';
import { completionAddresses } from './completion-addresses.js';
import { bashScript, fishScript, zshScript, type Candidate, type CompletionNode, type ScriptSource } from './completion-scripts.js';
import type { Io, SetExit } from './io.js';
import type { LazyCommand } from './lazy-command.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

const SCRIPTS: Record<(typeof SHELLS)[number], (nodes: readonly CompletionNode[], source: ScriptSource) => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };

/** This installation's entry point, `bin/adsctl.js` beside `dist/` (what `npx adsctl` runs in a clone). */
const ENTRY = fileURLToPath(new URL('../../bin/adsctl.js', import.meta.url));

/** The arguments that name a resource address, by their name in the command's definition. */
const ADDRESS_ARGUMENTS: ReadonlySet<string> = new Set(['address', 'source', 'destination']);

/** How many leading arguments of `cmd` are addresses; -1 when a variadic one takes every word. */
function addressArguments(cmd: Command): number {
  let count = 0;
  for (const argument of cmd.registeredArguments) {
    if (!ADDRESS_ARGUMENTS.has(argument.name())) break;
    if (argument.variadic) return -1;
    count += 1;
  }
  return count;
}

const takesValue = (o: Option): boolean => o.required || o.optional;

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

/** The subcommands of `cmd` that help lists (not `completion addresses`). */
const visible = (cmd: Command): Command[] => new Help().visibleCommands(cmd).filter((c) => c.name() !== 'help');

/** What may follow each command of `program`, from the top level down. */
function completionNodes(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (cmd: Command, key: string): void => {
    const subcommands = visible(cmd).map((c) => ({ word: c.name(), summary: c.description() }));
    if (key === '') subcommands.push({ word: 'help', summary: 'display help for a command' });
    const choices = (cmd.registeredArguments[0]?.argChoices ?? []).map((word) => ({ word, summary: '' }));
    const group = subcommands.length > 0;
    const options = cmd.options.filter((o) => o.long !== undefined);
    nodes.push({
      key,
      words: group ? subcommands : choices,
      group,
      options: optionCandidates(cmd),
      addressArguments: group ? 0 : addressArguments(cmd),
      addressOptions: options.filter((o) => takesValue(o) && /<address>/.test(o.flags)).map((o) => o.long!),
      valueOptions: options.filter(takesValue).map((o) => o.long!),
    });
    for (const sub of visible(cmd)) visit(sub, key === '' ? sub.name() : `${key} ${sub.name()}`);
  };
  visit(program, '');
  return nodes;
}

/** Adds `completion` to the program. */
export function registerCompletion(program: Command, io: Io, setExit: SetExit, commands: readonly LazyCommand[]): void {
  const completion = program
    .command('completion')
    .description('print a shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .action(async (shell: (typeof SHELLS)[number]) => {
      const nodes = completionNodes(await fullProgram(io, commands));
      io.out(SCRIPTS[shell](nodes, { entry: ENTRY }));
      setExit(0);
    });
  completion
    .command('addresses', { hidden: true })
    .description('print the resource addresses the manifests and state at a path know, one a line (for the scripts)')
    .argument('[path]', 'a manifest file or a directory of manifests', '.')
    .action(async (path: string) => {
      for (const address of await completionAddresses(path, io.env)) io.out(`${address}\n`);
      setExit(0);
    });
}
