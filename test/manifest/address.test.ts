import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_ADDRESS, childAddress, formatAddress, parseAddress, targetingKey } from '../../src/manifest/address.js';
import type { ResourceAddress } from '../../src/manifest/types.js';

const lineItem = childAddress(childAddress(ACCOUNT_ADDRESS, 'campaigns', 'summer_sale'), 'line_items', 'us');

describe('formatAddress', () => {
  it('writes the addresses of docs/manifest.md, quoting keys that are not plain identifiers', () => {
    expect(formatAddress(ACCOUNT_ADDRESS)).toBe('account');
    expect(formatAddress(childAddress(ACCOUNT_ADDRESS, 'funding_instruments', 'main'))).toBe('funding_instruments.main');
    expect(formatAddress(childAddress(lineItem, 'promoted_posts', '1346184843436720128'))).toBe('campaigns.summer_sale.line_items.us.promoted_posts["1346184843436720128"]');
    expect(formatAddress(childAddress(ACCOUNT_ADDRESS, 'campaigns', 'summer sale "26"'))).toBe('campaigns["summer sale \\"26\\""]');
    expect(formatAddress(childAddress(ACCOUNT_ADDRESS, 'campaigns', 'back-to-school'))).toBe('campaigns.back-to-school');
  });

  it('keys targeting criteria by type and value, with the operator when it is not EQ', () => {
    expect(formatAddress(childAddress(lineItem, 'targeting', targetingKey('LOCATION', '96683cc9126741d1', 'EQ')))).toBe(
      'campaigns.summer_sale.line_items.us.targeting["LOCATION:96683cc9126741d1"]',
    );
    expect(targetingKey('BROAD_KEYWORD', 'sun: screen', 'NE')).toBe('BROAD_KEYWORD/NE:sun: screen');
  });

  it('knows which kind each collection holds and refuses collections that do not nest', () => {
    expect(childAddress(lineItem, 'curated_categories', '1409').kind).toBe('line_item_curated_category');
    expect(childAddress(ACCOUNT_ADDRESS, 'features', 'AGE_TARGETING').kind).toBe('account_feature');
    expect(() => childAddress(ACCOUNT_ADDRESS, 'line_items', 'x')).toThrow();
  });
});

describe('parseAddress', () => {
  it('parses every form formatAddress writes', () => {
    const text = 'campaigns.summer_sale.line_items.us.promoted_posts["1346184843436720128"]';
    const parsed = parseAddress(text);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.value).toEqual({
      kind: 'promoted_post',
      steps: [
        { collection: 'campaigns', key: 'summer_sale' },
        { collection: 'line_items', key: 'us' },
        { collection: 'promoted_posts', key: '1346184843436720128' },
      ],
    });
    expect(parseAddress('account').value).toEqual(ACCOUNT_ADDRESS);
    expect(parseAddress('campaigns["a.b"]').value?.steps).toEqual([{ collection: 'campaigns', key: 'a.b' }]);
  });

  it('drops an explicit /EQ from targeting keys so both spellings name one criterion', () => {
    const a = parseAddress('campaigns.s.line_items.u.targeting["LOCATION/EQ:abc"]').value;
    const b = parseAddress('campaigns.s.line_items.u.targeting["LOCATION:abc"]').value;
    expect(a).toEqual(b);
  });

  it.each([
    ['', 'an address must not be empty'],
    ['campaigns', 'expected .key or ["key"] after "campaigns"'],
    ['campaigns.', 'expected a key after "campaigns."'],
    ['campaigns.a.', 'an address must not end with "."'],
    ['campaign.a', 'there is no collection "campaign" at the top level; did you mean "campaigns"?'],
    ['campaigns.a.targeting["X:y"]', 'there is no collection "targeting" under a campaign'],
    ['campaigns["a', 'unterminated quoted key'],
    ['campaigns["a"', 'expected ] after a quoted key'],
    ['campaigns[""]', 'keys must not be empty'],
    ['campaigns.a!b', 'unexpected "!" at character 12'],
    ['campaigns.a.line_items.b.targeting["nocolon"]', 'must be TYPE:VALUE or TYPE/OP:VALUE'],
    ['campaigns.a.line_items.b.targeting["LOCATION/XX:v"]', 'must be TYPE:VALUE or TYPE/OP:VALUE'],
  ])('refuses %j', (text, message) => {
    const parsed = parseAddress(text);
    expect(parsed.value).toBeUndefined();
    expect(parsed.diagnostics).toHaveLength(1);
    expect(parsed.diagnostics[0]?.code).toBe('address-syntax');
    expect(parsed.diagnostics[0]?.message).toContain(message);
  });

  it('round-trips any address built from any keys', () => {
    const key = fc.string({ minLength: 1, maxLength: 12 });
    const address = fc.tuple(key, key, fc.constantFrom('promoted_posts', 'promoted_accounts', 'media_creatives', 'curated_categories'), key).map(([c, l, collection, k]): ResourceAddress =>
      childAddress(childAddress(childAddress(ACCOUNT_ADDRESS, 'campaigns', c), 'line_items', l), collection, k),
    );
    fc.assert(
      fc.property(address, (a) => {
        const parsed = parseAddress(formatAddress(a));
        expect(parsed.value).toEqual(a);
      }),
      { numRuns: 1000 },
    );
  });

  it('round-trips targeting keys with any value', () => {
    fc.assert(
      fc.property(fc.constantFrom('LOCATION', 'BROAD_KEYWORD', 'AGE'), fc.string({ minLength: 1, maxLength: 20 }), fc.constantFrom('EQ', 'NE', 'GTE', 'LT'), (type, value, op) => {
        const a = childAddress(lineItem, 'targeting', targetingKey(type, value, op));
        expect(parseAddress(formatAddress(a)).value).toEqual(a);
      }),
      { numRuns: 500 },
    );
  });
});
