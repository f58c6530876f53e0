import fc from 'fast-check';
import examples from 'libphonenumber-js/examples.mobile.json';
import metadata from 'libphonenumber-js/min/metadata';
import { describe, expect, it } from 'vitest';
import { decidePhone, isPhoneRegion, libraryE164, normalisePhone } from '../../../src/members/sets/phone-number.js';
import { checkProperty } from './property.js';

/** A deterministic generator of digit strings (xorshift32). */
function digitSource(seed: number): (n: number) => string {
  let s = seed >>> 0 || 1;
  return (n) => {
    let out = '';
    for (let i = 0; i < n; i++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      out += String((s >>> 0) % 10);
    }
    return out;
  };
}

/** Ways people write a number: as is, grouped with spaces, dashes, dots and a parenthesised area code. */
function spellings(digits: string): string[] {
  const groups = digits.replace(/(\d{3})(?=\d)/g, '$1 ');
  const area = digits.length > 4 ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` : digits;
  return [digits, groups, groups.replace(/ /g, '-'), groups.replace(/ /g, '.'), area];
}

interface Case {
  text: string;
  region: string | undefined;
}

/** Inputs around every country's example number and random numbers for every calling code. */
function differentialCases(): Case[] {
  const next = digitSource(20_260_101);
  const cases: Case[] = [];
  const callingCodes = [...Object.keys(metadata.country_calling_codes), ...Object.keys(metadata.nonGeographic ?? {})];
  for (const cc of callingCodes) {
    for (let length = 1; length <= 18; length++) for (const s of spellings(next(length))) cases.push({ text: `+${cc} ${s}`, region: undefined });
  }
  for (const [country, example] of Object.entries(examples as Record<string, string>)) {
    const cc = (metadata.country_calling_codes as Record<string, string[]>);
    const callingCode = Object.keys(cc).find((code) => cc[code]!.includes(country));
    for (let keep = 0; keep <= example.length; keep++) {
      for (const delta of [-1, 0, 1]) {
        const digits = example.slice(0, keep) + next(Math.max(0, example.length - keep + delta));
        for (const s of spellings(digits)) {
          cases.push({ text: s, region: country });
          cases.push({ text: s, region: 'US' });
          if (callingCode !== undefined) cases.push({ text: `+${callingCode}${s}`, region: undefined }, { text: `+${callingCode} ${s}`, region: 'GB' });
        }
      }
    }
    cases.push({ text: `0${example}`, region: country }, { text: `00${example}`, region: country }, { text: `011${example}`, region: country });
  }
  return cases;
}

describe('normalisePhone', () => {
  const table: Array<[string, string | undefined, string | undefined]> = [
    ['+1 415-555-2671', undefined, '+14155552671'],
    ['+14155552671', undefined, '+14155552671'],
    ['(415) 555-2671', 'US', '+14155552671'],
    ['415.555.2671', 'US', '+14155552671'],
    ['1 415 555 2671', 'US', '+14155552671'],
    ['+44 20 7946 0958', undefined, '+442079460958'],
    ['+44 (0)20 7946 0958', undefined, '+442079460958'],
    ['020 7946 0958', 'GB', '+442079460958'],
    ['07400 123456', 'GB', '+447400123456'],
    ['+49 30 901820', undefined, '+4930901820'],
    ['(415) 555-2671', undefined, undefined],
    ['+1 415 555', undefined, undefined],
    ['+999 1234567', undefined, undefined],
    ['not a number', 'US', undefined],
    ['+1 415 555 2671 ext. 12', undefined, '+14155552671'],
  ];
  it.each(table)('%s (region %s) → %s', (text, region, expected) => {
    expect(normalisePhone(text, region)).toBe(expected);
    expect(libraryE164(text, region)).toBe(expected);
  });

  it('decides like libphonenumber-js for numbers of every calling code and every example number', () => {
    let decided = 0;
    let valid = 0;
    const cases = differentialCases();
    for (const { text, region } of cases) {
      const fast = decidePhone(text, region);
      if (fast === undefined) continue;
      decided++;
      if (fast !== null) valid++;
      const library = libraryE164(text, region) ?? null;
      if (fast !== library) expect.fail(`fast path ${String(fast)} but library ${String(library)} for ${JSON.stringify(text)} in ${String(region)}`);
    }
    // the fast paths must take the common cases, or they buy nothing
    expect(decided / cases.length).toBeGreaterThan(0.5);
    expect(valid).toBeGreaterThan(5_000);
  });

  it('decides like libphonenumber-js for arbitrary short strings of phone characters', () => {
    const text = fc.stringMatching(/^\+?[0-9 ().-]{0,20}$/);
    const region = fc.constantFrom(undefined, 'US', 'GB', 'DE', 'FR', 'IN', 'RU', 'BR', 'AU');
    checkProperty(
      fc.property(text, region, (t, r) => {
        const fast = decidePhone(t, r);
        return fast === undefined || fast === (libraryE164(t, r) ?? null);
      }),
      { numRuns: 20_000 },
    );
  });

  it('knows the regions of the metadata', () => {
    expect(isPhoneRegion('US')).toBe(true);
    expect(isPhoneRegion('GB')).toBe(true);
    expect(isPhoneRegion('XX')).toBe(false);
    expect(isPhoneRegion('us')).toBe(false);
  });
});
