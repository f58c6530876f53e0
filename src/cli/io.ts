/** The process streams the command line writes to and reads from; replaceable in tests. */
import { createInterface } from 'node:readline';
import { systemClock, type Clock } from '../clock/clock.js';

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
  /** The run's clock: the wall clock, or what ADSCTL_CLOCK sets (`main` reads it once; src/clock/clock.ts). */
  clock: Clock;
}

/**
 * The most of a text written to stdout at once. The plan an apply of 100,000 new resources shows
 * is 37 MB of text; written at once, it would be copied whole into one more buffer.
 */
const PIECE = 1 << 20;

/** Writes `text` in pieces of at most PIECE code units (or `piece`), never splitting a surrogate pair. */
export function writeInPieces(stream: Pick<NodeJS.WritableStream, 'write'>, text: string, piece = PIECE): void {
  if (text.length <= piece) {
    stream.write(text);
    return;
  }
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + piece, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    stream.write(text.slice(start, end));
    start = end;
  }
}

/** The process's own streams and environment. */
export function processIo(): Io {
  return {
    out: (text) => writeInPieces(process.stdout, text),
    err: (text) => void process.stderr.write(text),
    env: process.env,
    clock: systemClock,
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
