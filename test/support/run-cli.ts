/** Runs the built CLI to completion, feeding stdin, and collects its output and exit code. */
import { spawn } from 'node:child_process';
import { BIN } from './cli.js';
import { clockEnv } from './test-clock.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Written to stdin once `waitFor` (a regex on stderr) has matched, or at once. */
  input?: string | ((stderr: string) => Promise<string>);
  waitFor?: RegExp;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...clockEnv(), ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let fed = false;
  const feed = async (): Promise<void> => {
    if (fed || options.input === undefined) return;
    if (options.waitFor !== undefined && !options.waitFor.test(stderr)) return;
    fed = true;
    const text = typeof options.input === 'string' ? options.input : await options.input(stderr);
    child.stdin.end(text);
  };
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    void feed();
  });
  if (options.input === undefined) child.stdin.end();
  else void feed();
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
