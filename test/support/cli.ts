/** Runs the built CLI (`bin/adsctl.js`) as a child process, as a user would. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { StartupInfo } from '../../src/emulator/emulator.js';

/** `bin/adsctl.js` of the project this file belongs to (found upwards, so compiled copies work too). */
export const BIN = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'bin', 'adsctl.js')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'bin', 'adsctl.js');
})();

export interface SpawnedEmulator {
  child: ChildProcessWithoutNullStreams;
  info: StartupInfo;
  stderr: () => string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
}

/** Starts `adsctl emulator --port 0 ...args` and waits for its start-up line. */
export function spawnEmulator(args: string[] = []): Promise<SpawnedEmulator> {
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      try {
        resolve({ child, info: JSON.parse(line) as StartupInfo, stderr: () => err, exited });
      } catch (error) {
        reject(new Error(`first stdout line is not JSON: ${line}\n${err}`));
      }
    });
    child.once('exit', (code) => reject(new Error(`emulator exited with ${String(code)} before start-up:\n${err}`)));
  });
}
