/**
 * A membership's section as the manifest writes it (`users: { file, ... }`): the member file must
 * be a file adsctl reads — a regular file inside the project root, within the service's size for
 * a member list (local-file.ts) — checked by its path alone; its identifiers are read only when a
 * plan is made (src/members/), never by validate's loader, so nothing private is held longer than
 * one plan needs.
 */
import { quoteValue } from '../diag/quote.js';
import { SERVICE_LIMITS } from '../service/limits.js';
import { childPointer, stringValue } from './entry-nodes.js';
import type { FileLimit } from './local-file.js';
import type { EntryReader } from './manifest-reading.js';
import { timestampProblem } from '../schema/timestamp-problem.js';

/** The largest member file adsctl reads: the largest member list the service takes (docs/service-behaviour.md, "File sizes"). */
export const MEMBER_FILE_LIMIT: FileLimit = { bytes: SERVICE_LIMITS.memberFileBytes, what: 'a member list' };

/** A member file's section, read into the membership resource. */
export const readMemberFile: EntryReader = (ctx, members, users, at) => {
  const file = users.byKey.get('file');
  const path = stringValue(file?.value);
  if (file !== undefined && path !== undefined) {
    members.attributes['file'] = path;
    members.attributeSources['file'] = ctx.rangeOf(file.value);
    const problem = ctx.checkFile(path, MEMBER_FILE_LIMIT);
    if (problem !== undefined) ctx.report(childPointer(at, 'file'), problem.code, problem.message, ctx.rangeOf(file.value));
  }
  for (const name of ['type', 'default_region']) {
    const e = users.byKey.get(name);
    const v = stringValue(e?.value);
    if (e === undefined || v === undefined) continue;
    members.attributes[name] = v;
    members.attributeSources[name] = ctx.rangeOf(e.value);
  }
  for (const name of ['effective_at', 'expires_at']) {
    const e = users.byKey.get(name);
    const text = stringValue(e?.value);
    if (e === undefined || text === undefined) continue;
    const normalised = ctx.timestamp(text);
    if (normalised === undefined) {
      ctx.report(childPointer(at, name), 'time-format', timestampProblem(name, quoteValue(text), text), ctx.rangeOf(e.value));
      continue;
    }
    members.attributes[name] = normalised;
    members.attributeSources[name] = ctx.rangeOf(e.value);
  }
  const effective = members.attributes['effective_at'];
  const expires = members.attributes['expires_at'];
  if (typeof effective === 'string' && typeof expires === 'string' && expires <= effective) {
    ctx.report(childPointer(at, 'expires_at'), 'time-order', `expires_at ${expires} must be later than effective_at ${effective}`, members.attributeSources['expires_at'] ?? members.source);
  }
};
