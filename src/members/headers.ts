/**
 * `checkMemberHeaders`, `adsctl validate`'s look at member files: the header of every CSV member
 * file the manifests name, read alone (sets/member-header.ts) from the file opened as a plan opens
 * it (a regular file inside the project root, within the service's size: project-file.ts) and
 * refused as a plan refuses it, so a header `plan` would stop at never passes `validate`. The
 * identifiers are left to the plan, and so is a file of one identifier a line (`type` given), which
 * has no header. The reading is loaded only when some manifest names a member file.
 */
import { dirname, isAbsolute, join } from 'node:path';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import { MEMBER_FILE_LIMIT } from '../kinds/member-file.js';
import { openProjectFile, readChunks } from '../manifest/project-file.js';
import { projectRoots } from '../manifest/project-root.js';
import type { DesiredAccount } from '../manifest/types.js';
import { MEMBER_KINDS } from './read.js';
import { CHUNK_BYTES } from './sets/member-text.js';

/** The problems of the headers of the CSV member files of `accounts`, in the order the manifests name them. */
export async function checkMemberHeaders(accounts: readonly DesiredAccount[]): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const rootOf = projectRoots();
  let read: typeof import('./sets/member-header.js') | undefined;
  for (const account of accounts) {
    for (const resource of account.resources) {
      const file = resource.attributes['file'];
      if (!MEMBER_KINDS.has(resource.kind) || typeof file !== 'string' || resource.attributes['type'] !== undefined) continue;
      const path = isAbsolute(file) ? file : join(dirname(account.file), file);
      const opened = await openProjectFile({ path, shownAs: file, root: rootOf(dirname(account.file)), limit: MEMBER_FILE_LIMIT });
      if (opened.problem !== undefined) {
        out.push(errorAt(opened.problem.code, opened.problem.message, resource.attributeSources['file']));
        continue;
      }
      try {
        read ??= await import('./sets/member-header.js');
        out.push(...(await read.readMemberHeader(readChunks(opened.handle, opened.size, CHUNK_BYTES), file)));
      } finally {
        await opened.handle.close();
      }
    }
  }
  return out;
}
