/**
 * Opens the endpoint a command talks to. `local` starts the embedded emulator in this process
 * (its state under `.adsctl/` so it persists between runs) and supplies its seeded credentials;
 * the other names resolve to base URLs and take credentials from the environment or profile.
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { emulatorEndpoint, resolveRemoteEndpoint, type Endpoint } from '../api/endpoints.js';
import type { OAuthCredentials } from '../api/signer.js';
import type { Clock } from '../clock/clock.js';
import { directoryProblem } from '../state/local-directory.js';

export interface OpenEndpoint {
  endpoint: Endpoint;
  /** Credentials that come with the endpoint itself (the embedded emulator's seed). */
  builtInCredentials?: OAuthCredentials;
  close: () => Promise<void>;
}

/**
 * Opens `name`; `stateDir` is where `local` keeps its data, `clock` the run's (the embedded
 * emulator's time is the run's), and a `local` endpoint busy with
 * another run is waited for up to `waitMs` (`--lock-timeout`). A remote endpoint carries
 * `connectTimeoutMs` (the run's `--connect-timeout`), and the API clients made for it retry a
 * refused connection only that long; without it, the client's default. Returns an error message
 * for a bad name or a busy endpoint.
 */
export async function openEndpoint(name: string, stateDir: string, clock: Clock, waitMs = 0, connectTimeoutMs?: number): Promise<OpenEndpoint | string> {
  if (name !== 'local') {
    const endpoint = resolveRemoteEndpoint(name);
    if (typeof endpoint === 'string') return endpoint;
    return { endpoint: connectTimeoutMs === undefined ? endpoint : { ...endpoint, connectTimeoutMs }, close: async () => {} };
  }
  const unusable = directoryProblem(stateDir, "the embedded emulator's data (endpoint local)", true);
  if (unusable !== undefined) return unusable;
  mkdirSync(stateDir, { recursive: true });
  // the emulator's code (a third of adsctl's) is loaded only by a run that uses it
  const [{ startEmulator }, { DataFileInUse }] = await Promise.all([import('../emulator/emulator.js'), import('../emulator/store/data-lock.js')]);
  const deadline = Date.now() + waitMs;
  let emulator;
  for (;;) {
    try {
      emulator = await startEmulator({ port: 0, dataFile: join(stateDir, 'emulator.json'), log: () => {}, clock });
      break;
    } catch (error) {
      if (!(error instanceof DataFileInUse)) throw error;
      if (Date.now() >= deadline) return `the embedded emulator (endpoint local) is busy: ${error.message}; wait for that run to finish, or use --lock-timeout`;
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, deadline - Date.now())));
    }
  }
  const { info } = emulator;
  return {
    endpoint: { ...emulatorEndpoint('local', info.base_url), name: 'local' },
    builtInCredentials: { consumerKey: info.consumer_key, consumerSecret: info.consumer_secret, token: info.access_token, tokenSecret: info.access_token_secret },
    close: () => emulator.close(),
  };
}
