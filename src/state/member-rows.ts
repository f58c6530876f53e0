/**
 * The member stores a state backend keeps in its database beside the state (PostgreSQL,
 * src/state/postgres/members.ts), each under the name its file would have: the same bytes, the
 * same checks when read. What the bytes hold and where a membership's store is named are
 * src/members/'s (store-path.ts, sets/member-store.ts); the backend only keeps them.
 */
export interface MemberRows {
  /** Where they are, for messages. */
  where: string;
  read(name: string): Promise<Buffer | undefined>;
  write(name: string, bytes: Buffer): Promise<void>;
  remove(name: string): Promise<void>;
  /** Every name kept for the account. */
  names(): Promise<string[]>;
}
