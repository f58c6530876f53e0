import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { IdentifierType } from '../../../src/members/sets/identifier.js';
import { digestHexes, memberSetOf } from '../../../src/members/sets/member-builder.js';
import { normaliseIdentifier } from '../../../src/members/sets/normalise.js';

const cases: Array<[IdentifierType, string, string | undefined]> = [
  ['email', ' User.Name@Example.COM ', 'user.name@example.com'],
  ['email', 'a@b.co', 'a@b.co'],
  ['email', 'first+tag@mail.example.org', 'first+tag@mail.example.org'],
  ['email', 'ÜSER@Exämple.de', 'üser@exämple.de'],
  ['email', 'no-at.example.com', undefined],
  ['email', 'two@@example.com', undefined],
  ['email', 'a@b@example.com', undefined],
  ['email', '@example.com', undefined],
  ['email', 'user@localhost', undefined],
  ['email', 'user@.example.com', undefined],
  ['email', 'user@example.', undefined],
  ['email', 'user@example..com', undefined],
  ['email', 'us er@example.com', undefined],
  ['phone_number', ' +1 (415) 555-2671 ', '+14155552671'],
  ['phone_number', '+44 20 7946 0958', '+442079460958'],
  ['phone_number', '+1 415 555', undefined],
  ['phone_number', 'call me', undefined],
  ['handle', '@JohnSmith', 'johnsmith'],
  ['handle', ' john_smith_99 ', 'john_smith_99'],
  ['handle', 'A', 'a'],
  ['handle', '@abcdefghijklmno', 'abcdefghijklmno'],
  ['handle', 'abcdefghijklmnop', undefined],
  ['handle', '@@john', undefined],
  ['handle', 'john-smith', undefined],
  ['handle', '@', undefined],
  ['device_id', ' AEBE52E7-03EE-455A-B3C4-E57283966239 ', 'aebe52e7-03ee-455a-b3c4-e57283966239'],
  ['device_id', 'cdda802e-fb9c-47ad-0794d394c912', 'cdda802e-fb9c-47ad-0794d394c912'],
  ['service_id', ' 783214 ', '783214'],
  ['service_id', '0012', '0012'],
  ['service_id', '12a', undefined],
  ['service_id', '-1', undefined],
  ['service_id', '1.5', undefined],
  ['partner_user_id', ' CRM-42 ', 'CRM-42'],
  ['partner_user_id', 'Ünïcode, with comma', 'Ünïcode, with comma'],
];

describe('normaliseIdentifier', () => {
  it.each(cases)('%s %j → %j', (type, text, expected) => {
    expect(normaliseIdentifier(type, text, undefined)).toBe(expected);
  });

  it('takes a national phone number in the default region', () => {
    expect(normaliseIdentifier('phone_number', '(415) 555-2671', 'US')).toBe('+14155552671');
    expect(normaliseIdentifier('phone_number', '(415) 555-2671', undefined)).toBeUndefined();
  });
});

describe('member digests', () => {
  it('are the SHA-256 of the normalised value, in lower-case hex', () => {
    const set = memberSetOf({ email: ['user.name@example.com'], phone_number: ['+14155552671'] });
    const sha = (v: string): string => createHash('sha256').update(v, 'utf8').digest('hex');
    expect(digestHexes(set, 'email')).toEqual([sha('user.name@example.com')]);
    expect(digestHexes(set, 'phone_number')).toEqual([sha('+14155552671')]);
  });
});
