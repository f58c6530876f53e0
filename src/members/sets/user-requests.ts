/**
 * `userRequests`: the request bodies that send a member set to the users endpoint of a custom
 * audience or a do-not-reach list (Part B, Custom audience users; Limits): a JSON array of
 * operation objects, at most 2,500 of them and at most 5,000,000 bytes a request.
 *
 * Each member is one user entry holding one identifier, `{"email":["<sha256 hex>"]}`
 * (`{"partner_user_id":["<id as sent>"]}` for partner ids), and the service counts user entries
 * (`success_count`, `total_count`). The emulator (and the specification) bound an operation's
 * users only by the body size, so a request carries one operation holding as many entries as
 * fit: the fewest requests possible, each within a few bytes of the limit. Bodies are made one at
 * a time, as the caller sends them.
 */
import { DIGEST_BYTES, HASHED_TYPES, type IdentifierType } from './identifier.js';
import { memberCount, partnerIdsKnown, type MemberSet } from './member-set.js';
import { SERVICE_LIMITS } from '../../service/limits.js';

/** The users operations: Update adds members, Delete removes them. */
export type UsersOperation = 'Update' | 'Delete';

/** How requests are made. */
interface UserRequestOptions {
  /** `effective_at` of every operation (ISO 8601 UTC); custom audiences only, the service's default is now. */
  effectiveAt?: string;
  /** `expires_at` of every operation (ISO 8601 UTC); the service's default is 13 months after the request. */
  expiresAt?: string;
  /** Most operation objects a request (the service allows 2,500). */
  maxOperations?: number;
  /** Largest body in UTF-8 bytes (the service allows 5,000,000). */
  maxBytes?: number;
}

/** One request, ready to send. */
export interface UsersRequest {
  /** The JSON body exactly as it is to be sent. */
  body: string;
  /** The body's length in UTF-8 bytes. */
  bytes: number;
  /** Operation objects in the body. */
  operations: number;
  /** User entries in the body: the `success_count` and `total_count` a complete answer reports. */
  users: number;
  /** Identifier values in the body (one per user entry). */
  identifiers: number;
}

/** Most operation objects in one users request (Part B, Limits). */
export const MAX_USERS_OPERATIONS = SERVICE_LIMITS.usersOperations;

/** Largest users request body, in bytes (Part B, Limits). */
export const MAX_USERS_BODY_BYTES = SERVICE_LIMITS.usersBodyBytes;

/** The bytes the user entries of `set` take in a body, with the commas between them: what any packing must send. */
function userEntryBytes(set: MemberSet): number {
  let bytes = 0;
  for (const t of HASHED_TYPES) bytes += (set.digests[t].length / DIGEST_BYTES) * hashedEntryBytes(t);
  for (const id of partnerValues(set)) bytes += Buffer.byteLength(partnerEntry(id));
  const n = memberCount(set);
  return n === 0 ? 0 : bytes + n - 1;
}

/** The fewest requests any packing of `set` needs: its entries' bytes over the body limit. */
export function minimumUserRequests(set: MemberSet, maxBytes = MAX_USERS_BODY_BYTES): number {
  return Math.ceil(userEntryBytes(set) / maxBytes);
}

/**
 * The values of `set`'s partner ids, which the service takes as written; a set whose partner ids
 * are known by digest alone cannot be sent (its callers refuse it first): a bug, thrown.
 */
function partnerValues(set: MemberSet): readonly string[] {
  if (!partnerIdsKnown(set)) throw new Error('partner user ids known only by their digests cannot be sent');
  return set.partnerIds;
}

/** `{"<type>":["` + 64 hex + `"]}`. */
const hashedEntryBytes = (type: IdentifierType): number => type.length + 73;
const partnerEntry = (id: string): string => `{"partner_user_id":[${JSON.stringify(id)}]}`;

/** The user entries of `set` in canonical type order, each with its UTF-8 byte length. */
function* entries(set: MemberSet): Generator<[string, number]> {
  for (const t of HASHED_TYPES) {
    const digests = set.digests[t];
    const open = `{"${t}":["`;
    const bytes = hashedEntryBytes(t);
    for (let off = 0; off < digests.length; off += DIGEST_BYTES) yield [`${open}${digests.toString('hex', off, off + DIGEST_BYTES)}"]}`, bytes];
  }
  for (const id of partnerValues(set)) {
    const entry = partnerEntry(id);
    yield [entry, Buffer.byteLength(entry)];
  }
}

/**
 * The request bodies that send every member of `members` with `operation` (Update for the
 * members a diff added, Delete for those it removed), packed into the fewest requests within
 * `maxBytes` and `maxOperations`. An empty set gives no request. A single entry too large for
 * any body cannot come from a member file (lines are bounded) and is a bug: it throws.
 */
export function* userRequests(operation: UsersOperation, members: MemberSet, options: UserRequestOptions = {}): Generator<UsersRequest> {
  const maxBytes = options.maxBytes ?? MAX_USERS_BODY_BYTES;
  const maxOperations = options.maxOperations ?? MAX_USERS_OPERATIONS;
  if (maxOperations < 1) throw new RangeError('maxOperations must be at least 1');
  let params = '';
  if (options.effectiveAt !== undefined) params += `"effective_at":${JSON.stringify(options.effectiveAt)},`;
  if (options.expiresAt !== undefined) params += `"expires_at":${JSON.stringify(options.expiresAt)},`;
  const head = `[{"operation_type":${JSON.stringify(operation)},"params":{${params}"users":[`;
  const tail = ']}}]';
  const envelope = Buffer.byteLength(head) + tail.length;

  let parts: string[] = [];
  let bytes = envelope;
  const finish = (): UsersRequest => {
    const body = head + parts.join(',') + tail;
    const request = { body, bytes, operations: 1, users: parts.length, identifiers: parts.length };
    parts = [];
    bytes = envelope;
    return request;
  };
  for (const [entry, size] of entries(members)) {
    if (parts.length > 0 && bytes + 1 + size > maxBytes) yield finish();
    const added = size + (parts.length === 0 ? 0 : 1);
    if (bytes + added > maxBytes) throw new RangeError(`a user entry of ${size} bytes does not fit a body of ${maxBytes} bytes`);
    bytes += added;
    parts.push(entry);
  }
  if (parts.length > 0) yield finish();
}
