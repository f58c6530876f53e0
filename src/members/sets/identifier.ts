/**
 * The identifier types of audience members (Part B, User identifier object). Every value but a
 * `partner_user_id` is normalised and SHA-256 hashed before it is sent; a partner id is sent as
 * the advertiser wrote it.
 */

/** The identifier types whose values are sent as SHA-256 digests. */
export type HashedIdentifierType = 'email' | 'phone_number' | 'handle' | 'device_id' | 'service_id';

/** Every identifier type a user entry may hold. */
export type IdentifierType = HashedIdentifierType | 'partner_user_id';

/** The hashed types in their canonical order (member sets, store files and content hashes follow it). */
export const HASHED_TYPES: readonly HashedIdentifierType[] = ['email', 'phone_number', 'handle', 'device_id', 'service_id'];

/** Every identifier type in canonical order: the hashed ones, then `partner_user_id`. */
export const IDENTIFIER_TYPES: readonly IdentifierType[] = [...HASHED_TYPES, 'partner_user_id'];

/** Bytes of one SHA-256 digest. */
export const DIGEST_BYTES = 32;

/** Whether `name` is one of the six identifier types. */
export const isIdentifierType = (name: string): name is IdentifierType => (IDENTIFIER_TYPES as readonly string[]).includes(name);
