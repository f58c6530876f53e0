/**
 * Issue 9, point 10: whether output is coloured. `--color` and `--no-color` decide; without
 * them FORCE_COLOR (on unless `0` or `false`) wins over NO_COLOR, which wins over the terminal.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { colorChoice, useColor, type ColorChoice } from '../../src/cli/color.js';
import { withRunOptions } from '../../src/cli/run-options.js';

describe('useColor', () => {
  it.each<[ColorChoice, NodeJS.ProcessEnv, boolean, boolean]>([
    ['auto', {}, true, true],
    ['auto', {}, false, false],
    ['auto', { NO_COLOR: '1' }, true, false],
    ['auto', { NO_COLOR: '' }, true, true],
    ['auto', { FORCE_COLOR: '1' }, false, true],
    ['auto', { FORCE_COLOR: '' }, false, true],
    ['auto', { FORCE_COLOR: '3' }, false, true],
    ['auto', { FORCE_COLOR: 'true' }, false, true],
    ['auto', { FORCE_COLOR: '0' }, true, false],
    ['auto', { FORCE_COLOR: 'false' }, true, false],
    ['auto', { FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
    ['always', { NO_COLOR: '1' }, false, true],
    ['always', { FORCE_COLOR: '0' }, false, true],
    ['never', { FORCE_COLOR: '1' }, true, false],
    ['never', {}, true, false],
  ])('%s with %j, terminal %s: %s', (choice, env, tty, expected) => {
    expect(useColor(choice, env, tty)).toBe(expected);
  });
});

describe('colorChoice', () => {
  it.each<[string[], ColorChoice]>([
    [[], 'auto'],
    [['--color'], 'always'],
    [['--no-color'], 'never'],
    [['--color', '--no-color'], 'never'],
    [['--no-color', '--color'], 'always'],
  ])('%j is %s', async (args, choice) => {
    let seen: ColorChoice | undefined;
    const cmd = withRunOptions(new Command('plan')).action((_flags: unknown, self: Command) => {
      seen = colorChoice(self);
    });
    await cmd.parseAsync(args, { from: 'user' });
    expect(seen).toBe(choice);
  });
});
