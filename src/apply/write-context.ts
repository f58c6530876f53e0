/**
 * The write context of an account's apply (`WriteContext`, kinds/descriptor.ts): what a kind's
 * write needs beyond its parameters — the files its manifest names, where what is kept beside the
 * state lives, and a way to report progress on a long write.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { WriteContext } from '../kinds/descriptor.js';
import type { AccountPlan } from '../plan/types.js';
import { membersStoreOf } from '../members/store-path.js';
import { syncMembers } from '../members/sync.js';
import type { MemberRows } from '../state/member-rows.js';
import type { ApplyEvent } from './events.js';

/**
 * The write context of `plan`'s apply: files the manifest names are read from its folder
 * (`plan.manifestDir`, under `plan.root`), and what is kept per resource sits in a folder beside
 * the state file, named after a hash of the address.
 */
export function writeContextOf(plan: AccountPlan, stateDir: string, onEvent: (e: ApplyEvent) => void, rows?: MemberRows): WriteContext {
  const dir = resolve(plan.root ?? '.', plan.manifestDir ?? '.');
  const filePath = (path: string): string => (isAbsolute(path) ? path : join(dir, path));
  return {
    filePath,
    readFile: (path) => readFile(filePath(path)),
    sidecarPath: (address, id) => membersStoreOf(stateDir, plan.account, address, id, rows),
    progress: (address, message) => onEvent({ type: 'working', account: plan.account, address, message }),
    syncMembers,
  };
}
