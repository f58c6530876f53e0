/**
 * The users batches of custom audiences and do-not-reach lists (Part B, Custom audience users,
 * Do-not-reach list): a JSON array of at most 2,500 `{operation_type: Update|Delete, params:
 * {users, ...}}` objects in a body of at most 5,000,000 bytes. Each user entry is an object of
 * identifier arrays; every value must be a string. A value that is a 64-character lowercase hex
 * SHA-256 is a member key (32 bytes); `partner_user_id` values are not hashed by clients, so the
 * emulator keys them by its own SHA-256 of the value. Any other value is counted as unmatched and
 * never stored. Update adds the keys, Delete removes them. Problems are reported per operation,
 * at most ten each.
 */
import { createHash } from 'node:crypto';
import { formatTime, parseTime } from '../clock.js';
import type { ApiContext } from '../context.js';
import { WireError, type WireErrorItem } from '../errors.js';
import type { Rec, Row } from '../store/row.js';
import { KEY_BYTES } from '../store/member-set.js';

/** Most operation objects in one request. */
const MAX_USER_OPERATIONS = 2_500;
/** Largest request body, in bytes. */
const MAX_USERS_BODY_BYTES = 5_000_000;
const MAX_ERRORS_PER_OPERATION = 10;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** How one endpoint's operations are read. */
export interface UserOperationRules {
  /** Identifier fields a user entry may hold; `twitter_id` is the older name of `service_id`. */
  identifiers: readonly string[];
  /** Whether `effective_at` may be sent (custom audiences) or is always now (do-not-reach lists). */
  effectiveAt: boolean;
  /** A problem with `expires_at` (already defaulted) given the effective time and now, or undefined. */
  checkExpiry: (expires: Date, effective: Date, now: Date) => string | undefined;
}

/** One operation, read and checked. */
interface UserOperation {
  type: 'Update' | 'Delete';
  /** User entries received. */
  records: number;
  /** Member keys of the valid values, concatenated. */
  keys: Buffer;
  /** Values that were not usable keys. */
  unmatched: number;
  /** The operation's echo: its type and its params other than the users. */
  echo: Rec;
}

/** 13 months after `from`: the default expiry of a membership. */
export function thirteenMonthsAfter(from: Date): Date {
  const d = new Date(from.getTime());
  d.setUTCMonth(d.getUTCMonth() + 13);
  return d;
}

/** 413 for a body over 5,000,000 bytes (the server itself cuts off at a larger size). */
export function checkUsersBodySize(ctx: ApiContext): void {
  if (ctx.req.body.length > MAX_USERS_BODY_BYTES) {
    throw new WireError(413, [{ code: 'INVALID_PARAMETER', message: `Request body exceeds ${MAX_USERS_BODY_BYTES} bytes`, parameter: 'body' }]);
  }
}

/** Request-level problems: not an array, empty, or too many operations. */
export function checkOperationArray(body: unknown): WireErrorItem | undefined {
  if (!Array.isArray(body)) return { code: 'INVALID_PARAMETER', message: 'The request body must be a JSON array of operations' };
  if (body.length === 0) return { code: 'INVALID_PARAMETER', message: 'A minimum of 1 items must be provided' };
  if (body.length > MAX_USER_OPERATIONS) return { code: 'INVALID_PARAMETER', message: `A maximum of ${MAX_USER_OPERATIONS} items can be provided, got ${body.length}` };
  return undefined;
}

const isObject = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads every operation of `body` (already checked by `checkOperationArray`); errors index-aligned. */
export function readUserOperations(body: unknown[], rules: UserOperationRules, now: Date): { ops: UserOperation[]; errors: WireErrorItem[][] } {
  const ops: UserOperation[] = [];
  const errors: WireErrorItem[][] = [];
  for (const item of body) {
    const errs: WireErrorItem[] = [];
    const op = readOne(item, rules, now, errs);
    errors.push(errs.slice(0, MAX_ERRORS_PER_OPERATION));
    if (op !== undefined) ops.push(op);
  }
  return { ops, errors };
}

function readOne(item: unknown, rules: UserOperationRules, now: Date, errs: WireErrorItem[]): UserOperation | undefined {
  const bad = (parameter: string, message: string): void => void errs.push({ code: 'INVALID_PARAMETER', message, parameter });
  const missing = (parameter: string): void => void errs.push({ code: 'MISSING_PARAMETER', message: `"${parameter}" is a required parameter`, parameter });
  if (!isObject(item)) {
    bad('operation_type', 'Each operation must be a JSON object');
    return undefined;
  }
  for (const key of Object.keys(item)) if (key !== 'operation_type' && key !== 'params') bad(key, `setting ${key} is not allowed`);
  const type = item['operation_type'];
  if (type === undefined) missing('operation_type');
  else if (type !== 'Update' && type !== 'Delete') bad('operation_type', `Expected a value in Update, Delete, got ${JSON.stringify(type)} for operation_type`);
  const params = item['params'];
  if (params === undefined) missing('params');
  else if (!isObject(params)) bad('params', 'params must be a JSON object');
  if (!isObject(params)) return undefined;

  const allowed = rules.effectiveAt ? ['users', 'effective_at', 'expires_at'] : ['users', 'expires_at'];
  for (const key of Object.keys(params)) if (!allowed.includes(key)) bad(key, `setting ${key} is not allowed`);
  const time = (name: string): Date | undefined => {
    const v = params[name];
    if (v === undefined) return undefined;
    const d = typeof v === 'string' ? parseTime(v) : undefined;
    if (d === undefined) bad(name, `Expected time, got ${JSON.stringify(v)} for ${name}`);
    return d;
  };
  const effective = (rules.effectiveAt ? time('effective_at') : undefined) ?? now;
  const expiresGiven = time('expires_at');
  const expires = expiresGiven ?? thirteenMonthsAfter(now);
  const expiryProblem = rules.checkExpiry(expires, effective, now);
  if (expiryProblem !== undefined) bad('expires_at', expiryProblem);

  const users = params['users'];
  let records = 0;
  let unmatched = 0;
  const hex: string[] = [];
  const partner: string[] = [];
  if (users === undefined) missing('users');
  else if (!Array.isArray(users) || users.length === 0) bad('users', 'users must be a non-empty array of user objects');
  else {
    records = users.length;
    users.forEach((user, i) => {
      if (!isObject(user)) return bad('users', `users[${i}] must be an object of identifier arrays`);
      let values = 0;
      for (const [field, list] of Object.entries(user)) {
        if (!rules.identifiers.includes(field)) {
          bad('users', `users[${i}].${field} is not an identifier; expected one of ${rules.identifiers.join(', ')}`);
          continue;
        }
        if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) {
          bad('users', `users[${i}].${field} must be an array of strings`);
          continue;
        }
        for (const v of list as string[]) {
          values++;
          if (field === 'partner_user_id') {
            if (v === '') unmatched++;
            else partner.push(v);
          } else if (SHA256_HEX.test(v)) hex.push(v);
          else unmatched++;
        }
      }
      if (values === 0) bad('users', `users[${i}] holds no identifier value`);
    });
  }
  if (errs.length > 0) return undefined;

  const keys = Buffer.allocUnsafe((hex.length + partner.length) * KEY_BYTES);
  hex.forEach((h, i) => keys.write(h, i * KEY_BYTES, KEY_BYTES, 'hex'));
  partner.forEach((p, i) => createHash('sha256').update(`partner_user_id:${p}`).digest().copy(keys, (hex.length + i) * KEY_BYTES));
  const echo: Rec = {};
  if (rules.effectiveAt) echo['effective_at'] = formatTime(effective);
  echo['expires_at'] = formatTime(expires);
  return { type: type as 'Update' | 'Delete', records, keys, unmatched: type === 'Update' ? unmatched : 0, echo };
}

/**
 * Applies read operations to the member set `set` of `row` (Update adds, Delete removes), adds
 * their unmatched values to the row's count, and answers the number of user records received —
 * the `success_count` and `total_count` both users endpoints report.
 */
export function applyUserOperations(ctx: ApiContext, row: Row, set: string, ops: readonly UserOperation[]): number {
  let records = 0;
  let unmatched = 0;
  for (const op of ops) {
    records += op.records;
    unmatched += op.unmatched;
    if (op.type === 'Update') ctx.store.members.add(set, op.keys);
    else ctx.store.members.remove(set, op.keys);
  }
  ctx.store.update(row, {}, { uploaded: true, unmatched: Number(row.ext['unmatched'] ?? 0) + unmatched });
  return records;
}
