/**
 * Issue 9, point 7: a reader that goes away (`adsctl plan | head -c 1`) ends the run quietly and
 * promptly, and the state lock is not left behind. The plan printed here is several times larger
 * than a pipe holds, so the CLI is still writing it when the reader closes after its first bytes:
 * the write fails with EPIPE, during `plan` after the refresh and during `apply` while the lock is
 * held. The emulator answers slowly, so the apply cannot have finished by then.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { BIN } from '../support/cli.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, type Workspace } from '../support/e2e.js';

const ACCOUNT = '18ce54d4x5t';
const CAMPAIGNS = 700;

let emulator: RunningEmulator;
let ws: Workspace;

interface ClosedRun {
  code: number | null;
  stderr: string;
  /** Seconds from the reader closing to the process ending. */
  secondsAfterClose: number;
}

/** Runs adsctl with stdout piped into a reader that closes it after the first bytes. */
function runIntoClosingReader(args: string[]): Promise<ClosedRun> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ws.dir, env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...ws.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let closedAt: number | undefined;
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout.once('data', () => {
    closedAt = Date.now();
    child.stdout.destroy();
  });
  return new Promise((resolve) => {
    const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(deadline);
      resolve({ code, stderr, secondsAfterClose: closedAt === undefined ? Number.NaN : (Date.now() - closedAt) / 1000 });
    });
  });
}

const locks = (): string[] => {
  const dir = join(ws.dir, '.adsctl', 'state');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.lock')) : [];
};

beforeAll(async () => {
  ({ emulator } = await startTestEmulator({ latencyMs: 300 }));
  const lines = ['version: 1', `endpoint: ${emulator.info.base_url}`, 'account:', `  id: "${ACCOUNT}"`, 'funding_instruments:', '  main: { id: lygyi }', 'campaigns:'];
  for (let i = 0; i < CAMPAIGNS; i++) {
    lines.push(`  c${i}: { name: "Closed output campaign number ${i}", funding_instrument: main, daily_budget: "1.00", total_budget: "100.00", entity_status: PAUSED }`);
  }
  ws = createWorkspace(emulator.info, `${lines.join('\n')}\n`);
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});

describe('a closed stdout', () => {
  it.each([[['plan', '--no-color']], [['apply', '--auto-approve', '--no-color']]])('ends adsctl %j quietly and promptly, releasing the lock', async (args) => {
    const run = await runIntoClosingReader(args);
    const story = `exit ${String(run.code)} ${run.secondsAfterClose}s after the reader closed\n--- stderr\n${run.stderr}`;
    expect(run.secondsAfterClose, story).toBeLessThan(5);
    expect(run.stderr, story).not.toMatch(/EPIPE|^\s+at |node:internal|Unhandled/m);
    expect(locks(), story).toEqual([]);
  });
});
