/**
 * A membership's section as the manifest writes it (`users: { file, ... }`): the member file must
 * exist; its identifiers are read only when a plan is made (src/members/), never by validate's
 * loader, so nothing private is held longer than one plan needs.
 */
import { quoteValue } from '../diag/quote.js';
import { childPointer, stringValue } from './entry-nodes.js';
import type { EntryReader } from './manifest-reading.js';
import { timestampProblem } from '../schema/timestamp-problem.js';

/** A member file's section, read into the membership resource. */
export const readMemberFile: EntryReader = (ctx, members, users, at) => {
  const file = users.byKey.get('file');
  const path = stringValue(file?.value);
  if (file !== undefined && path !== undefined) {
    members.attributes['file'] = path;
    members.attributeSources['file'] = ctx.rangeOf(file.value);
    if (!ctx.fileExists(path)) ctx.report(childPointer(at, 'file'), 'file-not-found', `file ${quoteValue(path)} does not exist (paths are relative to the manifest)`, ctx.rangeOf(file.value));
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
