/**
 * `adsctl show PLANFILE`: prints a plan saved with `plan --out` — as text, `--markdown` or
 * `--json`, rendered by the same code as `plan` — without reading the manifests, the state or
 * the service, as `terraform show PLANFILE` does. A file that is not a saved plan is one line and
 * exit 1.
 */
import type { Command } from 'commander';
import { readSavedPlan } from '../engine/saved-plan.js';
import { renderPlanPieces } from '../render/render.js';
import { colorChoice, useColor } from './color.js';
import type { Io, SetExit } from './io.js';

interface ShowFlags {
  json?: boolean;
  markdown?: boolean;
  color: boolean;
}

/** Adds `show` to the program. */
export function registerShow(program: Command, io: Io, setExit: SetExit): void {
  program
    .command('show')
    .description('show a plan saved with plan --out, as text, Markdown or JSON')
    .argument('<planfile>', 'a plan saved with adsctl plan --out')
    .option('--json', 'print the plan as JSON')
    .option('--markdown', 'print the plan as Markdown for a pull-request comment')
    .option('--no-color', 'plain output without colour (also NO_COLOR)')
    .option('--color', 'colour even when stdout is not a terminal (also FORCE_COLOR)')
    .action((path: string, flags: ShowFlags, cmd: Command) => {
      const plan = readSavedPlan(path);
      if (typeof plan === 'string') {
        io.err(`Error: ${path}: ${plan}\n`);
        return setExit(1);
      }
      const format = flags.json === true ? 'json' : flags.markdown === true ? 'markdown' : 'text';
      for (const piece of renderPlanPieces(plan, format, { color: useColor(colorChoice(cmd), io.env, io.stdoutTty) })) io.out(piece);
      setExit(0);
    });
}
