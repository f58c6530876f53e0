/**
 * Phone numbers to E.164, as the service asks before hashing: parsed with libphonenumber-js and
 * its `min` metadata (`parsePhoneNumberFromString`, then `isValid`), a number that does not parse
 * or is not valid being invalid.
 *
 * The library runs near 100,000 numbers a second, far below what a member file needs. The two
 * common spellings, `+<digits>` and a national number of the default region, written with
 * digits, spaces, `-`, `.` and parentheses only, are decided here from the same metadata
 * compiled once (`phone-plans.ts`), following the library's steps: calling code, national
 * prefix, country among those sharing the calling code, validity. Whenever a step would take
 * one of the library's rarer branches (a national prefix or carrier code to strip, an
 * international dialling prefix, a calling code written without `+`, a non-geographic calling
 * code, unusual lengths or characters), the number goes to the library itself. The tests hold
 * the two paths to the same answers for every calling code.
 */
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/core';
import metadata from 'libphonenumber-js/min/metadata';
import { compilePhonePlans, validForCallingCode, type PhonePlans } from './phone-plans.js';

let plans: PhonePlans | undefined;
const compiled = (): PhonePlans => (plans ??= compilePhonePlans(metadata));

/** Whether `region` is an ISO 3166-1 alpha-2 code the phone metadata knows (upper case). */
export function isPhoneRegion(region: string): boolean {
  return /^[A-Z]{2}$/.test(region) && isSupportedCountry(region as CountryCode, metadata);
}

/** The library's answer: E.164 when the number parses and is valid. */
export function libraryE164(text: string, region: string | undefined): string | undefined {
  const parsed = region === undefined ? parsePhoneNumberFromString(text, metadata) : parsePhoneNumberFromString(text, region as CountryCode, metadata);
  return parsed !== undefined && parsed.isValid() ? parsed.number : undefined;
}

/** What the fast paths decide: E.164, `null` for invalid, or undefined when the library must decide. */
type PhoneDecision = string | null | undefined;

const INTERNATIONAL = /^\+[0-9 ().-]*[0-9]$/;
const NATIONAL = /^[0-9 ().-]*[0-9]$/;
const NON_DIGITS = /[^0-9]/g;
const MIN_NATIONAL = 2;
const MAX_NATIONAL = 17;
const MAX_INPUT = 250;

function international(text: string, p: PhonePlans): PhoneDecision {
  if (!INTERNATIONAL.test(text)) return undefined;
  const digits = text.replace(NON_DIGITS, '');
  if (digits.charCodeAt(0) === 0x30) return undefined;
  for (let length = 1; length <= 3 && length <= digits.length; length++) {
    const callingCode = digits.slice(0, length);
    const group = p.byCallingCode.get(callingCode);
    if (group === undefined) {
      if (p.otherCallingCodes.has(callingCode)) return undefined;
      continue;
    }
    const national = digits.slice(length);
    if (national.length < MIN_NATIONAL || national.length > MAX_NATIONAL) return undefined;
    if (group.main.prefixForParsing?.test(national) === true) return undefined;
    return validForCallingCode(group, national) ? `+${callingCode}${national}` : null;
  }
  return undefined;
}

function national(text: string, region: string, p: PhonePlans): PhoneDecision {
  if (!NATIONAL.test(text)) return undefined;
  const home = p.byCountry.get(region);
  if (home === undefined) return undefined;
  const digits = text.replace(NON_DIGITS, '');
  if (digits.length < 3 || digits.length > MAX_NATIONAL) return undefined;
  if (digits.search(home.idd) === 0) return undefined;
  if (digits.startsWith(home.callingCode)) return undefined;
  if (home.prefixForParsing?.test(digits) === true) return undefined;
  const group = p.byCallingCode.get(home.callingCode);
  if (group === undefined) return undefined;
  return validForCallingCode(group, digits, home) ? `+${home.callingCode}${digits}` : null;
}

/**
 * `text` (already trimmed) as an E.164 number (`+` and digits), or undefined when it is not a
 * valid phone number. `region` (upper-case ISO 3166-1 alpha-2, checked with `isPhoneRegion`) is
 * the country of numbers written without `+` and a calling code.
 */
export function normalisePhone(text: string, region: string | undefined): string | undefined {
  const decided = decidePhone(text, region);
  return decided === undefined ? libraryE164(text, region) : (decided ?? undefined);
}

/** The fast paths alone (the tests compare them with the library): what `normalisePhone` decides without the library. */
export function decidePhone(text: string, region: string | undefined): PhoneDecision {
  if (text.length > MAX_INPUT) return undefined;
  const p = compiled();
  if (text.charCodeAt(0) === 0x2b) return international(text, p);
  return region === undefined ? undefined : national(text, region, p);
}
