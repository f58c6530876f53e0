/**
 * Location targeting values (`GET targeting_criteria/locations`, LOCATION criteria). Items have the
 * service's shape. The values of the United States (`96683cc9126741d1`) and of the documented cities
 * and the San Francisco–Oakland–San Jose market (`5122804691e5fecc`) are the service's own; the
 * other values are emulator-made 16-hex strings in the same form. Postal codes are generated from
 * US ZIP prefixes, which gives enough locations to reach the per-line-item location limit.
 */
import { createHash } from 'node:crypto';

/** The `location_type` filter values of the lookup. */
type LocationType = 'COUNTRIES' | 'REGIONS' | 'METROS' | 'CITIES' | 'POSTAL_CODES';

/** Every `location_type` filter value, broadest first. */
export const LOCATION_TYPES: readonly LocationType[] = ['COUNTRIES', 'REGIONS', 'METROS', 'CITIES', 'POSTAL_CODES'];

/** A lookup item of `targeting_criteria/locations`. */
interface LocationOption {
  name: string;
  country_code: string;
  location_type: LocationType;
  targeting_value: string;
  targeting_type: 'LOCATION';
}

/** The singular `location_type` a LOCATION targeting criterion record carries. */
export const CRITERION_LOCATION_TYPE: Record<LocationType, string> = {
  COUNTRIES: 'COUNTRY',
  REGIONS: 'REGION',
  METROS: 'METRO',
  CITIES: 'CITY',
  POSTAL_CODES: 'POSTAL_CODE',
};

type Entry = readonly [targetingValue: string, countryCode: string, name: string];

const COUNTRIES: readonly Entry[] = [
  ['96683cc9126741d1', 'US', 'United States'],
  ['aabd7522322d9682', 'GB', 'United Kingdom'],
  ['02762cca644f3e76', 'CA', 'Canada'],
  ['fd8d88d34a09f650', 'AU', 'Australia'],
  ['0e32a8c4f3408e6b', 'DE', 'Germany'],
  ['6d737c2b077a177a', 'FR', 'France'],
  ['8387d14494c71e63', 'ES', 'Spain'],
  ['23f4aaec945b8cd7', 'IT', 'Italy'],
  ['86ffe8baa1bfcc32', 'NL', 'Netherlands'],
  ['776d47401ba81997', 'IE', 'Ireland'],
  ['4967a4d89e74fdb9', 'JP', 'Japan'],
  ['8e45362aadd789fb', 'KR', 'South Korea'],
  ['c8ab226a6d021029', 'BR', 'Brazil'],
  ['d90344793127c7d3', 'MX', 'Mexico'],
  ['1dc7cd85035fb68b', 'AR', 'Argentina'],
  ['a234653dfa480e8a', 'CO', 'Colombia'],
  ['1eb8c52bd941dc79', 'CL', 'Chile'],
  ['2c856d71b6beb0d9', 'IN', 'India'],
  ['1973b57d89bbcbfd', 'SE', 'Sweden'],
  ['87194fe506dbd50b', 'ZA', 'South Africa'],
];

const REGIONS: readonly Entry[] = [
  ['abda15b5fd5e427c', 'US', 'California, US'],
  ['d419ec769fa03771', 'US', 'New York, US'],
  ['d3332120574f3a22', 'US', 'Texas, US'],
  ['d7423f2716c105f7', 'US', 'Washington, US'],
  ['0b261201c3f6ae04', 'US', 'Illinois, US'],
  ['c1a11a27fddd970f', 'US', 'Massachusetts, US'],
  ['05cce4797ba08c6e', 'US', 'Florida, US'],
  ['c33dc92b60a694c2', 'CA', 'Ontario, CA'],
  ['2f31aae08a841271', 'CA', 'British Columbia, CA'],
  ['fd66b81e6ab34765', 'GB', 'England, GB'],
  ['6128648b225a5b6d', 'GB', 'Scotland, GB'],
  ['ef9ff22eff967d95', 'DE', 'Bavaria, DE'],
  ['684799bef57de4dd', 'FR', 'Île-de-France, FR'],
  ['9bad825f4509c975', 'ES', 'Catalonia, ES'],
  ['bc22b181e71a5249', 'JP', 'Tokyo, JP'],
  ['6a4e03ef7261189c', 'AU', 'New South Wales, AU'],
  ['1db576d8f9d72fe9', 'BR', 'São Paulo, BR'],
];

const METROS: readonly Entry[] = [
  ['cc86eab426c8cb38', 'US', 'Los Angeles CA, US'],
  ['3d04b7c6ae436871', 'US', 'New York NY, US'],
  ['242e43ad74afa807', 'US', 'Chicago IL, US'],
  ['e95e7fa9469d14b9', 'US', 'Seattle-Tacoma WA, US'],
  ['e90b219b8d2c3466', 'US', 'Boston MA-Manchester NH, US'],
  ['2fab8c0e29493b2f', 'US', 'Miami-Ft. Lauderdale FL, US'],
  ['86c13c003b552860', 'US', 'Austin TX, US'],
  ['394e71cd93ef4f03', 'US', 'Atlanta GA, US'],
  ['f5c018cc026818db', 'US', 'Denver CO, US'],
  ['d148ab4c5a1d0400', 'US', 'Dallas-Ft. Worth TX, US'],
];

const CITIES: readonly Entry[] = [
  ['5122804691e5fecc', 'US', 'San Francisco-Oakland-San Jose CA, US'],
  ['3b77caf94bfc81fe', 'US', 'Los Angeles, Los Angeles CA, CA, USA'],
  ['67571a7baaa5906b', 'US', 'East Los Angeles, Los Angeles CA, CA, USA'],
  ['ea9bfbd43c93400f', 'US', 'Lake Los Angeles, Los Angeles CA, CA, USA'],
  ['a2de7c70b82b0ca0', 'US', 'Los Gatos, San Francisco-Oakland-San Jose CA, CA, USA'],
  ['6a4364ea6f987c10', 'US', 'Los Altos, Monterey-Salinas CA, CA, USA'],
  ['b1b6fc646de75904', 'US', 'Los Banos, CA, USA'],
  ['0799ff0a3c1006e9', 'US', 'Los Alamitos, Los Angeles CA, CA, USA'],
  ['019940ae78c7b3bc', 'US', 'Los Angeles, US'],
  ['8a391c131a79827b', 'US', 'New York, New York NY, NY, USA'],
  ['0eb91c0739151523', 'US', 'Brooklyn, New York NY, NY, USA'],
  ['1e1e3ca3fcac432f', 'US', 'Chicago, Chicago IL, IL, USA'],
  ['43c0f8e20ccfe5f0', 'US', 'Seattle, Seattle-Tacoma WA, WA, USA'],
  ['055df913f2de1ebf', 'US', 'Boston, Boston MA-Manchester NH, MA, USA'],
  ['641af562eade4e34', 'US', 'Austin, Austin TX, TX, USA'],
  ['fa289903b370c5cb', 'US', 'Miami, Miami-Ft. Lauderdale FL, FL, USA'],
  ['ed3555d509304f7e', 'US', 'Dallas, Dallas-Ft. Worth TX, TX, USA'],
  ['bf724afe939f9070', 'GB', 'London, England, GB'],
  ['41b6e4986fb1bff2', 'GB', 'Manchester, England, GB'],
  ['98dcb65475cc4d32', 'CA', 'Toronto, Ontario, CA'],
  ['645b890fd948e38e', 'CA', 'Vancouver, British Columbia, CA'],
  ['01b0ccfd16dd2e4d', 'FR', 'Paris, Île-de-France, FR'],
  ['6544843360ae6d72', 'DE', 'Berlin, DE'],
  ['3ebaa888399607bd', 'DE', 'Munich, Bavaria, DE'],
  ['fd636582d770c912', 'ES', 'Madrid, ES'],
  ['d6fa7911e40acac4', 'ES', 'Barcelona, Catalonia, ES'],
  ['aed45aaa433fcae6', 'JP', 'Tokyo, Tokyo, JP'],
  ['e5e9215e6f977a12', 'AU', 'Sydney, New South Wales, AU'],
  ['8fa5859c42123414', 'BR', 'São Paulo, São Paulo, BR'],
  ['f992e857eaf0996c', 'MX', 'Mexico City, MX'],
];

/** US ZIP prefixes (first three digits) and their state; each yields 100 postal codes. */
const ZIP_PREFIXES: ReadonlyArray<readonly [prefix: string, state: string]> = [
  ['100', 'NY'], ['101', 'NY'], ['102', 'NY'], ['103', 'NY'], ['104', 'NY'], ['112', 'NY'],
  ['900', 'CA'], ['902', 'CA'], ['903', 'CA'], ['904', 'CA'], ['905', 'CA'], ['906', 'CA'],
  ['940', 'CA'], ['941', 'CA'], ['943', 'CA'], ['945', 'CA'], ['946', 'CA'], ['950', 'CA'],
  ['606', 'IL'], ['607', 'IL'], ['981', 'WA'], ['021', 'MA'], ['787', 'TX'], ['752', 'TX'],
  ['331', 'FL'], ['303', 'GA'], ['802', 'CO'],
];

const hex16 = (key: string): string => createHash('sha1').update(`adsctl-location:${key}`).digest('hex').slice(0, 16);

function postalCodes(): LocationOption[] {
  const out: LocationOption[] = [];
  for (const [prefix, state] of ZIP_PREFIXES) {
    for (let i = 0; i < 100; i++) {
      const zip = `${prefix}${String(i).padStart(2, '0')}`;
      out.push({ name: `${zip}, ${state}, US`, country_code: 'US', location_type: 'POSTAL_CODES', targeting_value: hex16(`postal:US:${zip}`), targeting_type: 'LOCATION' });
    }
  }
  return out;
}

const of = (type: LocationType, entries: readonly Entry[]): LocationOption[] =>
  entries.map(([targeting_value, country_code, name]) => ({ name, country_code, location_type: type, targeting_value, targeting_type: 'LOCATION' }));

/** Every location, countries first, then regions, metros, cities and postal codes. */
export const LOCATIONS: readonly LocationOption[] = [
  ...of('COUNTRIES', COUNTRIES),
  ...of('REGIONS', REGIONS),
  ...of('METROS', METROS),
  ...of('CITIES', CITIES),
  ...postalCodes(),
];

const BY_VALUE = new Map(LOCATIONS.map((l) => [l.targeting_value, l]));

/** The location with this targeting value, if the emulator knows it. */
export function findLocation(targetingValue: string): LocationOption | undefined {
  return BY_VALUE.get(targetingValue);
}
