/**
 * Memory: the commands that hold whole accounts in memory set V8's heap growth at
 * start-up, unless the user gave heap flags of their own. Checked by the flags set, never by
 * memory measured: the figures are the bench's (BENCHMARKS.md, plan-apply).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { READING_HEAP_GROWTH, tuneHeapGrowth, WRITING_HEAP_GROWTH, type HeapGrowthHost } from '../../src/cli/heap-growth.js';
import { COMMAND_INTERRUPT_BUDGET } from '../../src/cli/compilers.js';
import { BIN } from '../support/cli.js';

const FLAG = `--heap-growing-percent=${READING_HEAP_GROWTH}`;
const WRITING = `--heap-growing-percent=${WRITING_HEAP_GROWTH}`;
/** The flags every command sets besides (compilers.ts). */
const COMPILERS = [`--interrupt-budget=${COMMAND_INTERRUPT_BUDGET}`, '--liftoff-only'];

function host(nodeOptions?: string, execArgv: string[] = []): HeapGrowthHost & { set: string[] } {
  const set: string[] = [];
  return { nodeOptions, execArgv, setFlags: (flags) => void set.push(flags), set };
}

describe('tuneHeapGrowth', () => {
  it.each([
    [FLAG, 'plan', 'dir'],
    [WRITING, 'apply', '--auto-approve', 'dir'],
    [WRITING, '--debug', 'destroy'],
    [FLAG, 'validate'],
    [FLAG, 'generate', 'out'],
    [FLAG, 'show', 'plan.bin'],
    [FLAG, 'import', 'a', 'b'],
    [FLAG, 'state', 'list'],
  ])('sets %s for %s', (flag, ...argv) => {
    const h = host();
    expect(tuneHeapGrowth(argv, h)).toBe(flag);
    expect(h.set).toEqual([flag]);
  });

  it.each([[], ['--version'], ['--help'], ['emulator', '--port', '0'], ['auth', 'whoami'], ['completion', 'bash'], ['insights', 'keywords', 'x']])('leaves the heap alone for %s', (...argv) => {
    const h = host();
    expect(tuneHeapGrowth(argv, h)).toBeUndefined();
    expect(h.set).toEqual([]);
  });

  // NODE_OPTIONS admits only these two of V8's heap flags; the others can only be given to node
  it.each(['--max-old-space-size=384', '--max_old_space_size=2048', '--enable-source-maps --max-semi-space-size=8'])(
    'leaves a user NODE_OPTIONS of %s to win',
    (options) => {
      const h = host(options);
      expect(tuneHeapGrowth(['apply', 'dir'], h)).toBeUndefined();
      expect(h.set).toEqual([]);
    },
  );

  it.each(['--max-old-space-size=700', '--max-heap-size=600', '--heap-growing-percent=80', '--optimize-for-size'])('leaves %s given to node itself to win', (flag) => {
    const given = host(undefined, ['--enable-source-maps', flag]);
    expect(tuneHeapGrowth(['plan'], given)).toBeUndefined();
    expect(given.set).toEqual([]);
  });

  it('ignores NODE_OPTIONS that do not touch the heap', () => {
    const other = host('--enable-source-maps --max-http-header-size=32768');
    expect(tuneHeapGrowth(['plan'], other)).toBe(FLAG);
  });
});

describe('bin/adsctl.js', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-heap-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // records every V8 flag the CLI sets, through the builtin module's export
  const preload = join(dir, 'record-flags.mjs');
  writeFileSync(
    preload,
    `import { createRequire, syncBuiltinESMExports } from 'node:module';
import { appendFileSync } from 'node:fs';
const v8 = createRequire(import.meta.url)('node:v8');
const set = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => { appendFileSync(process.env.ADSCTL_TEST_FLAGS, flags + '\\n'); set(flags); };
syncBuiltinESMExports();
`,
  );
  writeFileSync(join(dir, 'account.yaml'), 'version: 1\nendpoint: local\naccount: { id: abc123 }\n');

  function flagsSet(args: string[], nodeOptions = ''): string[] {
    const log = join(dir, `flags-${Math.random().toString(36).slice(2)}.txt`);
    const r = spawnSync(process.execPath, [BIN, ...args], {
      env: { ...process.env, NODE_OPTIONS: `--import=${pathToFileURL(preload).href} ${nodeOptions}`.trim(), ADSCTL_TEST_FLAGS: log },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  }

  it('sets the heap growth at start-up for validate, not for --version', () => {
    expect(flagsSet(['validate', dir])).toEqual([FLAG, ...COMPILERS]);
    expect(flagsSet(['--version'])).toEqual(COMPILERS);
  });

  it('sets no heap flag when NODE_OPTIONS sizes the heap', () => {
    expect(flagsSet(['validate', dir], '--max-old-space-size=384')).toEqual(COMPILERS);
  });
});
