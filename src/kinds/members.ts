/**
 * The members of a custom audience (Part B, Custom audience users) and of the do-not-reach list:
 * a resource under its audience or list, whose value is the member file's content — normalised
 * and SHA-256 hashed identifiers, known to the plan only by their set's hash and counts. The
 * service shows no membership but a rounded size, so the members last uploaded are kept beside
 * the state (hashes only, mode 0600, naming the membership) and compared with the file: apply
 * sends only the difference (src/members/sync.ts, which apply gives the write as the context's
 * `syncMembers`), and a plan that does not know them refuses. Removing the `users` section takes every member out; the members go with
 * their deleted audience or list.
 */
import { field, required } from './attribute.js';
import type { KindDescriptor, MembersEndpoint, MembersSync, WriteContext } from './descriptor.js';
import { readMemberFile } from './member-file.js';
import { MAX_USERS_BODY_BYTES } from '../members/sets/user-requests.js';

/** The most bytes one member takes in a users body: `{"phone_number":["<64 hex>"]},`. */
const ENTRY_BYTES = 86;

/** The users requests a membership change sends: its Delete and its Update bodies. */
function usersRequests(params: Readonly<Record<string, unknown>>): number {
  const m = params['members'] as { added?: unknown; removed?: unknown } | undefined;
  const bodies = (n: unknown): number => (typeof n === 'number' && n > 0 ? Math.ceil((n * ENTRY_BYTES) / MAX_USERS_BODY_BYTES) : 0);
  return bodies(m?.added) + bodies(m?.removed);
}

/** The membership sync apply gives the write; a context without one is a bug. */
function syncOf(ctx: WriteContext): MembersSync {
  if (ctx.syncMembers === undefined) throw new Error('a membership is written without the members sync (WriteContext.syncMembers)');
  return ctx.syncMembers;
}

/** The members resource of `parent`, sent through `endpoint`. */
function membersKind(kind: 'audience_members' | 'do_not_reach_members', parent: 'custom_audience' | 'do_not_reach_list', parentField: string, endpoint: MembersEndpoint, def: string, times: readonly string[]): KindDescriptor {
  return {
    kind,
    noun: kind === 'audience_members' ? 'audience membership' : 'do-not-reach membership',
    parent,
    parentField,
    address: { collection: 'users', key: 'single' },
    manifest: { def, plain: [], ids: [], money: {}, times: [], refs: {}, special: ['file', 'type', 'default_region', ...times], children: [], read: readMemberFile },
    attributes: [
      required(parentField, 'id', 'replace'),
      { ...field('file', 'scalar', 'update'), informational: true },
      { ...field('type', 'scalar', 'update'), informational: true },
      { ...field('default_region', 'scalar', 'update'), informational: true },
      {
        ...field('members', 'json', 'update'),
        writeOnly: true,
        requiredOnCreate: true,
        readFrom: 'file',
        // the same members when the hashes of the sets agree and nothing is left to do: no member
        // to send, no store to write again (src/members/read.ts)
        equivalent: (desired, live) => hashOf(desired) !== undefined && hashOf(desired) === hashOf(live) && nothingToSend(desired),
        // once sent, nothing of the set is left to send
        appliedAs: (value) => {
          const { resend: _resend, restore: _restore, ...m } = value as { count?: unknown; resend?: unknown; restore?: unknown };
          return { ...m, added: 0, removed: 0, unchanged: m.count };
        },
      },
      ...times.map((t) => ({ ...field(t, 'time', 'update'), writeOnly: true as const })),
    ],
    computed: ['id'],
    read: {
      via: 'custom',
      // the membership exists while its audience or list does: its id is theirs
      read: async (_api, _accountId, { bound, parents }) => parents.filter((id) => bound.has(id)).map((id) => ({ id, [parentField]: id })),
    },
    write: {
      create: { via: 'single', send: (api, accountId, item, ctx) => syncOf(ctx)(endpoint, api, accountId, item, ctx, parentField), requests: usersRequests },
      update: { via: 'single', send: (api, accountId, item, ctx) => syncOf(ctx)(endpoint, api, accountId, item, ctx, parentField), requests: usersRequests },
      delete: { via: 'single', send: (api, accountId, item, ctx) => syncOf(ctx)(endpoint, api, accountId, { ...item, params: { [parentField]: item.id ?? '' } }, ctx, parentField, true) },
    },
    import: { via: 'manifest', hint: 'members are uploaded from the file; list them under their audience' },
    replaceOrder: 'delete-first',
    sandboxOnly: false,
    retiredWithParent: true,
    owned: false,
    limits: [],
    lookups: [],
  };
}

function nothingToSend(value: unknown): boolean {
  const m = value as { added?: unknown; removed?: unknown; restore?: unknown } | null;
  return m !== null && typeof m === 'object' && m.added === 0 && m.removed === 0 && m.restore !== true;
}

function hashOf(value: unknown): string | undefined {
  const hash = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['hash'] : undefined;
  return typeof hash === 'string' ? hash : undefined;
}

/** The members of a custom audience. */
export const AUDIENCE_MEMBERS: KindDescriptor = {
  ...membersKind('audience_members', 'custom_audience', 'custom_audience_id', 'audience', 'Members', ['effective_at', 'expires_at']),
  // the service targets an audience only once its members are in: a criterion naming it waits for them
  readyBeforeReferences: true,
};

/** The users of the do-not-reach list. */
export const DO_NOT_REACH_MEMBERS: KindDescriptor = membersKind('do_not_reach_members', 'do_not_reach_list', 'do_not_reach_list_id', 'do_not_reach', 'DoNotReachMembers', ['expires_at']);
