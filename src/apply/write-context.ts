/**
 * The write context of an account's apply (`WriteContext`, kinds/descriptor.ts): what a kind's
 * write needs beyond its parameters — the files its manifest names, where what is kept beside the
 * state lives, and a way to report progress on a long write.
 */
import { isAbsolute, join, resolve } from 'node:path';
import type { WriteContext } from '../kinds/descriptor.js';
import { LocalWriteError } from '../kinds/write-error.js';
import { readProjectFile } from '../manifest/project-file.js';
import { projectRootOf } from '../manifest/project-root.js';
import type { AccountPlan } from '../plan/types.js';
import { membersStoreOf } from '../members/store-path.js';
import { syncMembers } from '../members/sync.js';
import type { MemberRows } from '../state/member-rows.js';
import type { ApplyEvent } from './events.js';

/**
 * The write context of `plan`'s apply: files the manifest names are read from its folder
 * (`plan.manifestDir`, under `plan.root`), checked again as the plan checked them (a regular file
 * inside the project root of that folder, within its kind's limit: src/manifest/project-file.ts),
 * and what is kept per resource sits in a folder beside the state file, named after a hash of the
 * address.
 */
export function writeContextOf(plan: AccountPlan, stateDir: string, onEvent: (e: ApplyEvent) => void, rows?: MemberRows, fence?: () => void): WriteContext {
  const dir = resolve(plan.root ?? '.', plan.manifestDir ?? '.');
  const filePath = (path: string): string => (isAbsolute(path) ? path : join(dir, path));
  let root: string | undefined;
  return {
    filePath,
    readFile: async (path, limit) => {
      const read = await readProjectFile({ path: filePath(path), shownAs: path, root: (root ??= projectRootOf(dir)), limit });
      if (read.problem !== undefined) throw new LocalWriteError(`${read.problem.code}: ${read.problem.message}`);
      return read.bytes;
    },
    sidecarPath: (address, id) => membersStoreOf(stateDir, plan.account, address, id, rows, fence),
    progress: (address, message) => onEvent({ type: 'working', account: plan.account, address, message }),
    syncMembers,
  };
}
