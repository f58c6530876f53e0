/**
 * Identifier values as the service asks them normalised before hashing: an email trimmed and
 * lower-cased; a phone number in E.164 (`phone-number.ts`); a handle trimmed, without its
 * leading `@`, lower-cased, 1 to 15 letters, digits or underscores; a device id trimmed and
 * lower-cased; a service id (the platform's numeric user id) trimmed, digits only; a partner user
 * id trimmed and otherwise as written (it is sent unhashed).
 */
import type { IdentifierType } from './identifier.js';
import { normalisePhone } from './phone-number.js';

/** One `@`, a non-empty local part, a domain of non-empty labels with at least one dot, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const HANDLE = /^[a-z0-9_]{1,15}$/;
const DIGITS = /^[0-9]+$/;

/** Why a value of each type was refused, for messages that must not show the value itself. */
export const INVALID_REASON: Readonly<Record<IdentifierType, string>> = {
  email: 'not an email address (one @, a local part, and a domain with a dot)',
  phone_number: 'not a valid phone number (E.164 with +country code, or a national number of the default region)',
  handle: 'not a handle (1 to 15 letters, digits or underscores, after an optional @)',
  device_id: 'not a device id',
  service_id: 'not a service id (digits only)',
  partner_user_id: 'not a partner user id',
};

/**
 * `text` (a non-blank cell) normalised as a value of `type`, or undefined when it is not one.
 * `region` is the upper-case default region of phone numbers written without a calling code.
 */
export function normaliseIdentifier(type: IdentifierType, text: string, region: string | undefined): string | undefined {
  const value = text.trim();
  switch (type) {
    case 'email': {
      const email = value.toLowerCase();
      return EMAIL.test(email) ? email : undefined;
    }
    case 'phone_number':
      return normalisePhone(value, region);
    case 'handle': {
      const handle = (value.charCodeAt(0) === 0x40 ? value.slice(1) : value).toLowerCase();
      return HANDLE.test(handle) ? handle : undefined;
    }
    case 'device_id':
      return value === '' ? undefined : value.toLowerCase();
    case 'service_id':
      return DIGITS.test(value) ? value : undefined;
    case 'partner_user_id':
      return value === '' ? undefined : value;
  }
}
