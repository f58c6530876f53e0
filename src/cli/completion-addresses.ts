/**
 * The resource addresses the shell completes (`state mv|rm|show`, `import`, `--target`): those the
 * manifests at a path declare and those the state of their roots binds, sorted, without repeats.
 * Completion must never fail loudly or hang on a prompt: manifests with errors give no address,
 * and a state that cannot be read gives none either.
 */
import { systemClock } from '../clock/clock.js';
import { formatAddress } from '../manifest/address.js';
import { loadManifests } from '../manifest/load.js';
import { boundAddresses } from '../engine/state-account.js';
import { stateRoots } from './root.js';
import { openStore } from './state-store.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Every address the manifests at `path` declare or the state beside them binds, sorted. */
export async function completionAddresses(path: string, env: Env): Promise<string[]> {
  const addresses = new Set<string>();
  const loaded = loadManifests(path, { env });
  for (const account of loaded.value?.accounts ?? []) for (const r of account.resources) if (r.kind !== 'account') addresses.add(formatAddress(r.address));
  for (const root of stateRoots(path)) {
    try {
      // completion only reads the state: the clock that would date a write is never read
      const store = await openStore(root, env, systemClock);
      if (!('read' in store)) continue;
      try {
        for await (const address of boundAddresses(store)) addresses.add(address);
      } finally {
        await store.close();
      }
    } catch {
      // a state that cannot be read completes nothing; the command itself will say why
    }
  }
  return [...addresses].sort();
}
