/**
 * Telling the kept versions of state a command's writes removed that git tracks (the local
 * store's rotation, docs/architecture.md "State, journal and locks"): one line naming them, so the
 * commit that records the new state records their removal too. Nothing when there is none.
 */
import { relative } from 'node:path';
import type { HistoryStore } from '../state/store.js';
import type { Io } from './io.js';

/** Says, on stderr, which kept versions `stores` removed that git tracks, each once; nothing when none. */
export function tellRemovedVersions(io: Io, stores: Iterable<Pick<HistoryStore, 'takeRemovedTracked'>>): void {
  const paths = [...new Set(stores)].flatMap((store) => store.takeRemovedTracked?.() ?? []).map((path) => relative(process.cwd(), path));
  if (paths.length === 0) return;
  const one = paths.length === 1;
  io.err(`Removed ${one ? 'the kept state version' : 'the kept state versions'} ${paths.join(', ')}, which git tracks (only the newest versions are kept): the commit should include ${one ? 'its' : 'their'} removal.\n`);
}
