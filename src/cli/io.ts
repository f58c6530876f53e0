/** The process streams the command line writes to and reads from; replaceable in tests. */
import { createInterface } from 'node:readline';

/** Sets the exit code of the run. */
export type SetExit = (code: number) => void;

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Whether stdin is a terminal (prompts and confirmation). */
  interactive: boolean;
  /** Whether stdout is a terminal (colour, progress bar). */
  stdoutTty: boolean;
  /** Reads one line from stdin (after printing `prompt` to stderr); undefined at end of input. */
  readLine: (prompt: string) => Promise<string | undefined>;
}

/** The process's own streams and environment. */
export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    env: process.env,
    interactive: process.stdin.isTTY === true,
    stdoutTty: process.stdout.isTTY === true,
    readLine: (prompt) =>
      new Promise((resolve) => {
        process.stderr.write(prompt);
        const rl = createInterface({ input: process.stdin, terminal: false });
        let answered = false;
        rl.once('line', (line) => {
          answered = true;
          rl.close();
          resolve(line.trim());
        });
        rl.once('close', () => {
          if (!answered) resolve(undefined);
        });
      }),
  };
}

/**
 * Calls `onClosed` once when stdout or stderr can no longer be written — the reader went away
 * (EPIPE: `adsctl state list | head -1`) or the stream broke otherwise. Without this, Node turns
 * the stream's error into an uncaught exception with a stack trace.
 */
export function whenOutputCloses(onClosed: () => void): void {
  let called = false;
  const closed = (): void => {
    if (called) return;
    called = true;
    onClosed();
  };
  process.stdout.on('error', closed);
  process.stderr.on('error', closed);
}
