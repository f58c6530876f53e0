/**
 * `adsctl emulator`: runs the local API. The first line on stdout is the start-up JSON
 * (docs/architecture.md, "Contracts"); logs go to stderr; SIGINT and SIGTERM stop it cleanly, writing the data file.
 */
import { Command, InvalidArgumentError } from 'commander';
import { parseClockSetting, settingClock, type ClockSetting } from '../clock/clock.js';
import { EmulatorOptionError, startEmulator } from '../emulator/emulator.js';
import type { Io } from './io.js';

const integer = (name: string, min: number) => (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
  return n;
};

const nonNegative = (name: string) => (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${name} must be a number >= 0`);
  return n;
};

/** `--clock`: an instant or a shift of real time (src/clock/clock.ts). */
const clockSetting = (value: string): ClockSetting => {
  const setting = parseClockSetting(value, Date.now());
  if (typeof setting === 'string') throw new InvalidArgumentError(setting);
  return setting;
};

interface EmulatorFlags {
  port: number;
  host: string;
  data?: string;
  latency: number;
  faults?: string;
  seed: number;
  rateLimitScale: number;
  rateLimitWindow?: number;
  clock?: ClockSetting;
}

/** Adds `emulator` to the program. */
export function registerEmulator(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command('emulator')
    .description('run the local emulator of the advertising API')
    .option('--port <n>', 'port to listen on (0 picks a free one)', integer('--port', 0), 0)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--data <file>', 'keep state in FILE across restarts')
    .option('--latency <ms>', 'delay every advertising response by MS milliseconds', integer('--latency', 0), 0)
    .option('--faults <spec>', 'inject faults, e.g. "429=5%,500=2%,503=5%,reset=2%,lost=1%,slow=5%,slow_ms=1500"')
    .option('--seed <n>', 'seed of the fault generator', integer('--seed', 0), 1)
    .option('--rate-limit-scale <factor>', 'multiply every rate limit by FACTOR (0 turns them off)', nonNegative('--rate-limit-scale'), 1)
    .option('--rate-limit-window <seconds>', 'replace every rate limit window by SECONDS', integer('--rate-limit-window', 1))
    .option('--clock <time>', "the emulator's time: an instant it starts at (2026-11-23T12:00:00Z) or a shift of real time (+400d, -14d); default $ADSCTL_CLOCK, else the wall clock", clockSetting)
    .action(async (flags: EmulatorFlags) => {
      let emulator;
      try {
        emulator = await startEmulator({
          port: flags.port,
          host: flags.host,
          ...(flags.data === undefined ? {} : { dataFile: flags.data }),
          latencyMs: flags.latency,
          ...(flags.faults === undefined ? {} : { faults: flags.faults }),
          seed: flags.seed,
          rateLimitScale: flags.rateLimitScale,
          ...(flags.rateLimitWindow === undefined ? {} : { rateLimitWindowSeconds: flags.rateLimitWindow }),
          clock: flags.clock === undefined ? io.clock : settingClock(flags.clock),
        });
      } catch (error) {
        if (error instanceof EmulatorOptionError || (error instanceof Error && 'code' in error)) {
          process.stderr.write(`adsctl emulator: ${error.message}\n`);
          setExit(1);
          return;
        }
        throw error;
      }
      const running = emulator;
      // handlers first: a client may signal as soon as it has read the start-up line
      const stopped = new Promise<void>((resolve) => {
        const stop = (signal: string): void => {
          process.stderr.write(`received ${signal}, stopping\n`);
          void running.close().then(resolve);
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
      process.stdout.write(`${JSON.stringify(emulator.info)}\n`);
      await stopped;
      setExit(0);
    });
}
