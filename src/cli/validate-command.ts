/**
 * `adsctl validate [PATH]`: loads the manifests at PATH (a file, or a directory searched for
 * *.yaml and *.yml) and checks them offline: YAML, schema, references, money, limits, the headers
 * of the CSV member files they name, and the guardrails of their adsctl.yaml. Prints a
 * one-line summary when they are valid, else every diagnostic with its source line; exit 1 on errors.
 */
import type { Command } from 'commander';
import { formatDiagnostics } from '../diag/format.js';
import { loadManifests } from '../manifest/load.js';
import { checkAccounts } from '../engine/validate.js';
import { guardrailRoots } from './guardrails.js';
import { processIo, type Io } from './io.js';
import { givenDirectory } from './root.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Adds the `validate` command to the program; output goes through `io` (the process streams by default). */
export function registerValidate(program: Command, setExit: (code: number) => void, io: Io = processIo()): void {
  program
    .command('validate')
    .description('check manifests offline: YAML, schema, references, money, limits (no network)')
    .argument('[path]', 'a manifest file, or a directory of *.yaml / *.yml manifests', '.')
    .action(async (path: string) => {
      const result = loadManifests(path, { env: io.env });
      // the guardrails of adsctl.yaml and the headers of member files are checked too: either would stop every plan
      const checked = result.value === undefined ? [] : await checkAccounts(result.value.accounts, guardrailRoots(result.value.accounts, givenDirectory(path)), result.sources);
      const diagnostics = [...result.diagnostics, ...checked];
      const errors = diagnostics.filter((d) => d.severity === 'error');
      if (diagnostics.length > 0) io.err(formatDiagnostics(diagnostics, result.sources));
      if (result.value === undefined || errors.length > 0) {
        const files = new Set(errors.map((d) => d.range?.file).filter((f) => f !== undefined));
        io.err(`\n${plural(errors.length, 'error')}${files.size > 0 ? ` in ${plural(files.size, 'file')}` : ''}.\n`);
        setExit(1);
        return;
      }
      const resources = result.value.accounts.reduce((sum, account) => sum + account.resources.length, 0);
      io.out(`Success! ${plural(resources, 'resource')} in ${plural(result.files.length, 'file')} (${plural(result.value.accounts.length, 'account')}) are valid.\n`);
      setExit(0);
    });
}
