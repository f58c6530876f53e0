/**
 * Whether output is coloured: `--no-color` never, `--color` always; otherwise `FORCE_COLOR` (any
 * value but `0` or `false` turns colour on, those turn it off), then `NO_COLOR` (any non-empty
 * value turns it off), then whether stdout is a terminal. `FORCE_COLOR` wins over `NO_COLOR`, as
 * in Node itself, so a CI job that sets both for different tools still gets what it forced.
 */
import type { Command } from 'commander';

/** What the command line asked for: `--color`, `--no-color`, or neither. */
export type ColorChoice = 'always' | 'never' | 'auto';

/** The choice of a command with `--color`/`--no-color` (run-options.ts), from where its value came. */
export function colorChoice(cmd: Command): ColorChoice {
  if (cmd.getOptionValueSource('color') !== 'cli') return 'auto';
  return cmd.getOptionValue('color') === false ? 'never' : 'always';
}

/** Whether to colour, given the choice, the environment and whether stdout is a terminal. */
export function useColor(choice: ColorChoice, env: NodeJS.ProcessEnv, stdoutTty: boolean): boolean {
  if (choice !== 'auto') return choice === 'always';
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  const noColor = env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  return stdoutTty;
}
