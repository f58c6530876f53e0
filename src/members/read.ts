/**
 * The plan's side of memberships (`readMemberships`, the members stage's entry): each member file
 * of the manifest is read, normalised and hashed (sets/), and the membership resource's
 * `members` value becomes what the plan compares and shows — the set's hash and its counts against
 * the members last uploaded — never an identifier. Invalid identifiers are counted and named by
 * line number; a file where most are invalid is an error. A bound membership whose members last
 * uploaded are not known (its store missing, damaged or another's) is refused at its file, unless
 * the file is exactly what the state records as last uploaded: then nothing is sent, and apply
 * writes the store again.
 */
import { memberCount, memberCounts, memberSetHash, partnerIdsKnown } from './sets/member-set.js';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import { formatAddress, parseAddress } from '../manifest/address.js';
import { projectRootOf } from '../manifest/project-root.js';
import type { DesiredAccount } from '../manifest/types.js';
import type { LiveAccount } from '../live/types.js';
import type { MembersStoreLocation } from './store-path.js';
import type { AccountState, StateResource } from '../state/state-file.js';
import { dirname, isAbsolute, join } from 'node:path';
import { membershipModule } from './load-membership.js';

/** The kinds whose members come from a member file: an audience's and the do-not-reach list's. */
export const MEMBER_KINDS: ReadonlySet<string> = new Set(['audience_members', 'do_not_reach_members']);

/** The membership windows: a change of either is sent with every member again. */
const WINDOW = ['effective_at', 'expires_at'] as const;

/** What the state records of a membership's last upload (`members` as applied): its hash and count. */
function recordedUpload(applied: Readonly<Record<string, unknown>> | undefined): { hash?: string; count?: number } {
  const m = applied?.['members'];
  if (m === null || typeof m !== 'object') return {};
  const { hash, count } = m as Record<string, unknown>;
  return { ...(typeof hash === 'string' ? { hash } : {}), ...(typeof count === 'number' ? { count } : {}) };
}

/** The refusal of a membership whose members last uploaded are not known, with the ways out. */
function unknownMembers(address: string, file: string, problem: string, recorded: { hash?: string; count?: number }, range: SourceRange | undefined): Diagnostic {
  const last = recorded.hash === undefined ? '' : ` (${recorded.count?.toLocaleString('en-US') ?? 'its'} members; the state records the hash ${recorded.hash.slice(0, 12)}…)`;
  return errorAt(
    'members-unknown',
    `${address}: the members last uploaded are not known: ${problem}. Without them the plan cannot tell whom to take out of the audience, and sending ${file} again would keep everyone removed from it. ` +
      `Restore the member store from where the state was last applied; or put back the member file as it was last uploaded${last}, and apply, which writes the store again; ` +
      'or, to start over, remove the audience from the manifest and apply, then add it back: a new audience starts empty',
    range,
  );
}

/**
 * The refusal of partner ids taken out of a file: the service takes them only as written, and the
 * member store keeps their digests alone, so their removal cannot be sent.
 */
function partnerRemovals(address: string, file: string, removed: number, range: SourceRange | undefined): Diagnostic {
  return errorAt(
    'members-partner-removed',
    `${address}: ${removed.toLocaleString('en-US')} partner_user_id member${removed === 1 ? ' was' : 's were'} taken out of ${file}; the service takes partner ids only as written, and adsctl keeps only their hashes, so it cannot send their removal. ` +
      'To take them out, delete the audience and create it anew (a new audience starts empty); to keep them, put them back in the file',
    range,
  );
}

/**
 * Fills in `members` of every membership of `account`; `storeOf` gives the store of the members
 * last uploaded for an address (undefined when the account keeps no state on disk or the
 * membership is to be made anew), `appliedOf` the values last applied to it.
 */
export async function readMemberships(account: DesiredAccount, storeOf: (address: string) => MembersStoreLocation | undefined, appliedOf: (address: string) => Readonly<Record<string, unknown>> | undefined = () => undefined): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  let root: string | undefined;
  for (const resource of account.resources) {
    if (!MEMBER_KINDS.has(resource.kind)) continue;
    const file = resource.attributes['file'];
    if (typeof file !== 'string') continue;
    const { lastUploaded, membersValue, readMembers } = await membershipModule();
    root ??= projectRootOf(dirname(account.file));
    const read = await readMembers({
      path: isAbsolute(file) ? file : join(dirname(account.file), file),
      shownAs: file,
      root,
      ...(resource.attributeSources['file'] === undefined ? {} : { at: resource.attributeSources['file'] }),
      type: resource.attributes['type'],
      defaultRegion: resource.attributes['default_region'],
    });
    diagnostics.push(...read.diagnostics);
    if (read.value === undefined) continue;
    if (resource.kind === 'do_not_reach_members') {
      // the do-not-reach list takes emails and phone numbers only
      const others = Object.entries(memberCounts(read.value.members)).filter(([type, n]) => n > 0 && type !== 'email' && type !== 'phone_number');
      if (others.length > 0) {
        diagnostics.push(errorAt('member-type', `${file}: the do-not-reach list takes email and phone_number identifiers only, not ${others.map(([t]) => t).join(', ')}`, resource.attributeSources['file']));
        continue;
      }
    }
    const address = formatAddress(resource.address);
    const store = storeOf(address);
    const applied = store === undefined ? undefined : appliedOf(address);
    const recorded = recordedUpload(applied);
    const previous = await lastUploaded(store, recorded.hash);
    // not known, but the file is what was last uploaded: nothing to send, and the store to write again
    const restore = !previous.known && recorded.hash !== undefined && recorded.hash === memberSetHash(read.value.members);
    if (!previous.known && !restore) {
      diagnostics.push(unknownMembers(address, file, previous.problem, recorded, resource.attributeSources['file']));
      continue;
    }
    const { value, diff } = membersValue(previous.known ? previous.members : read.value.members, read.value.members);
    if (!partnerIdsKnown(diff.removed)) {
      diagnostics.push(partnerRemovals(address, file, memberCount(diff.removed, 'partner_user_id'), resource.attributeSources['file']));
      continue;
    }
    // the service takes a window only with the members sent under it: a new window sends them all
    const moved = applied !== undefined && WINDOW.some((w) => (resource.attributes[w] ?? null) !== (applied[w] ?? null));
    resource.attributes['members'] = moved ? { ...value, added: value.count, unchanged: 0, resend: true } : restore ? { ...value, restore: true } : value;
    const range = resource.attributeSources['file'];
    if (range !== undefined) resource.attributeSources['members'] = range;
  }
  return diagnostics;
}

/**
 * Refusals of the memberships the plan would remove — their `users` section gone while their
 * audience or list stays — whose members last uploaded are not known: the removal takes out
 * exactly those members, and without them it would take out no one. `storeOf` is as for
 * `readMemberships`; a membership whose parent goes too goes with it and needs nothing.
 */
export async function unknownRemovals(account: DesiredAccount, state: AccountState, storeOf: (address: string) => MembersStoreLocation | undefined): Promise<Diagnostic[]> {
  const memberships: Array<[string, StateResource]> = [];
  for (const address in state.resources) {
    const entry = state.resources[address]!;
    if (MEMBER_KINDS.has(entry.kind)) memberships.push([address, entry]);
  }
  const out: Diagnostic[] = [];
  if (memberships.length === 0) return out;
  const desired = new Set(account.resources.map((r) => formatAddress(r.address)));
  for (const [address, entry] of memberships) {
    if (desired.has(address)) continue;
    const parsed = parseAddress(address).value;
    if (parsed === undefined || !desired.has(formatAddress({ ...parsed, steps: parsed.steps.slice(0, -1) }))) continue;
    const store = storeOf(address);
    if (store === undefined) continue;
    const { lastUploaded } = await membershipModule();
    const previous = await lastUploaded(store, recordedUpload(entry.applied).hash);
    if (previous.known && !partnerIdsKnown(previous.members)) {
      out.push({ ...partnerRemovals(address, 'the membership', memberCount(previous.members, 'partner_user_id'), undefined), subject: address });
      continue;
    }
    if (previous.known) continue;
    out.push({
      ...errorAt(
        'members-unknown',
        `${address}: its removal would take out the members last uploaded, and they are not known: ${previous.problem}; nothing would be taken out of the audience. ` +
          'Restore the member store from where the state was last applied; or keep the users section, with the member file as it was last uploaded, and apply, which writes the store again; ' +
          'or delete the audience itself',
      ),
      subject: address,
    });
  }
  return out;
}

/**
 * Membership drift, by the counts the service gives: it shows an audience's size only, rounded
 * down to two significant digits and counting matched members, so the one sure sign is a size
 * above what was last uploaded — members added outside adsctl. They are reported, not removed:
 * the service does not say which they are.
 */
export function membershipDrift(state: AccountState, live: LiveAccount): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const address in state.resources) {
    const entry = state.resources[address]!;
    if (entry.kind !== 'audience_members') continue;
    const uploaded = (entry.applied['members'] as { count?: unknown } | undefined)?.count;
    const size = live.resources.get('custom_audience')?.get(entry.id)?.record['audience_size'];
    if (typeof uploaded !== 'number' || typeof size !== 'number' || size <= uploaded) continue;
    out.push({
      severity: 'warning',
      code: 'members-added-outside',
      message: `${address}: the service reports about ${size.toLocaleString('en-US')} members, more than the ${uploaded.toLocaleString('en-US')} adsctl uploaded: members were added outside adsctl; they stay, since the service does not say which they are`,
      subject: address,
    });
  }
  return out;
}
