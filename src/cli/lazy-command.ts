/** A command as the top level knows it before its code is loaded (the table is src/cli/commands.ts). */
import type { Command } from 'commander';
import type { Io, SetExit } from './io.js';

/** Adds one command (or a group of them) to `program`, with its own arguments, options and action. */
type Register = (program: Command, io: Io, setExit: SetExit) => void;

/** A command the top level can list and run without loading its code until it runs. */
export interface LazyCommand {
  name: string;
  /** Arguments as `adsctl --help` lists them, e.g. `[options] [path]`. */
  usage: string;
  summary: string;
  /** Loads the module that defines the command and returns its registration. */
  load: () => Promise<Register>;
}

