/**
 * How every `adsctl state …` subcommand and `force-unlock` are told whose state to use, the same
 * way for all of them: DIR (a manifest file or a directory of manifests, as for plan) after the
 * command's own arguments, or `--path DIR`, else the current directory. Given both, they must agree.
 */
import { resolve } from 'node:path';
import { parseAddress } from '../manifest/address.js';

/** The path a state command works on, or the one-line problem of being given two. */
export function statePath(dir: string | undefined, flag: string | undefined): { path: string } | { problem: string } {
  if (dir !== undefined && flag !== undefined && resolve(dir) !== resolve(flag)) {
    return { problem: `the manifests' path is given twice, as ${JSON.stringify(dir)} and as --path ${JSON.stringify(flag)}: give one of them` };
  }
  return { path: dir ?? flag ?? '.' };
}

/**
 * The addresses of `state rm ADDRESS... [DIR]` and its DIR: the last of two or more arguments is
 * DIR when it is not an address (`accounts/`, `.`, `shop.yaml`); a directory whose name is also an
 * address (`account`) is given with `--path`.
 */
export function addressesAndDir(args: readonly string[]): { addresses: string[]; dir: string | undefined } {
  const last = args.at(-1);
  if (args.length < 2 || last === undefined || parseAddress(last).value !== undefined) return { addresses: [...args], dir: undefined };
  return { addresses: args.slice(0, -1), dir: last };
}
