/**
 * Terraform's action symbols and wording, the only place they exist (docs/architecture.md): `+` create,
 * `~` update in place, `-` destroy, `-/+` destroy and then create the replacement. Colour is
 * ANSI green, yellow and red, and only when the caller asks for it.
 */
import type { DocumentActions } from './document-types.js';

/** The action of a resource as human output names it. */
export type Shown = 'create' | 'update' | 'replace' | 'delete' | 'noop';

/** Which of Terraform's actions a document action list is. */
export function shownAction(actions: DocumentActions): Shown {
  if (actions.length === 2) return 'replace';
  switch (actions[0]) {
    case 'create':
      return 'create';
    case 'update':
      return 'update';
    case 'delete':
      return 'delete';
    case 'no-op':
      return 'noop';
  }
}

/** Symbol characters of each action (the no-op's blank keeps columns aligned). */
export const SYMBOLS: Readonly<Record<Shown, string>> = { create: '+', update: '~', replace: '-/+', delete: '-', noop: ' ' };

/** The end of the `# ADDRESS ...` line of each action, in Terraform's words. */
export const HEADERS: Readonly<Record<Shown, string>> = {
  create: 'will be created',
  update: 'will be updated in-place',
  replace: 'must be replaced',
  delete: 'will be destroyed',
  noop: 'has no changes',
};

/** The legend lines, in Terraform's order and words. */
export const LEGEND: ReadonlyArray<readonly [Exclude<Shown, 'noop'>, string]> = [
  ['create', '  + create'],
  ['update', '  ~ update in-place'],
  ['delete', '  - destroy'],
  ['replace', '-/+ destroy and then create replacement'],
];

const GREEN = '\u001b[32m';
const YELLOW = '\u001b[33m';
const RED = '\u001b[31m';
const RESET = '\u001b[0m';

/** Colours the symbols of a line prefix: `+` green, `~` yellow, `-` red; other characters unchanged. */
export function paintSymbols(symbols: string, color: boolean): string {
  if (!color) return symbols;
  return symbols.replace(/[+~-]/g, (s) => `${s === '+' ? GREEN : s === '~' ? YELLOW : RED}${s}${RESET}`);
}

/** Right-aligns a symbol in three columns so `-/+` and the one-character symbols line up. */
export function padSymbol(symbol: string): string {
  return symbol.padStart(3, ' ');
}
