/**
 * The small targeting value lists the service looks values up in: languages, platforms, platform
 * versions, devices, network operators, app store categories, conversations, age buckets and
 * genders. Items have the shapes of the `GET targeting_criteria/<x>` lookups; values shown in the
 * service's documentation keep their documented targeting values, the rest are emulator-made in
 * the same form.
 */

/** Fields every targeting option lookup item has. */
export interface TargetingOption {
  name: string;
  targeting_type: string;
  targeting_value: string;
}

const option = <T extends Record<string, unknown>>(targeting_type: string, targeting_value: string, name: string, extra?: T): TargetingOption & T =>
  ({ name, targeting_type, targeting_value, ...(extra ?? ({} as T)) });

/** Languages by ISO 639-1 code (`targeting_criteria/languages`, LANGUAGE criteria). */
export const LANGUAGES: readonly TargetingOption[] = (
  [
    ['en', 'English'], ['es', 'Spanish'], ['fr', 'French'], ['de', 'German'], ['ja', 'Japanese'], ['pt', 'Portuguese'],
    ['it', 'Italian'], ['nl', 'Dutch'], ['ko', 'Korean'], ['ar', 'Arabic'], ['hi', 'Hindi'], ['tr', 'Turkish'],
    ['ru', 'Russian'], ['sv', 'Swedish'], ['pl', 'Polish'], ['id', 'Indonesian'],
  ] as const
).map(([code, name]) => option('LANGUAGE', code, name));

/** Platforms (`targeting_criteria/platforms`, PLATFORM criteria), as documented. */
export const PLATFORMS: readonly TargetingOption[] = [
  option('PLATFORM', '0', 'iOS'),
  option('PLATFORM', '1', 'Android'),
  option('PLATFORM', '2', 'BlackBerry phones and tablets'),
  option('PLATFORM', '3', 'Mobile web on other devices'),
  option('PLATFORM', '4', 'Desktop and laptop computers'),
];

/**
 * Mobile OS versions (`targeting_criteria/platform_versions`, PLATFORM_VERSION criteria). The OS is
 * `os_type`, not the reference example's `platform` (docs/service-behaviour.md, "Targeting option items").
 */
export const PLATFORM_VERSIONS: readonly (TargetingOption & { number: string; os_type: string })[] = (
  [
    ['17', 'Ice Cream Sandwich', '4.0', 'Android'], ['18', 'Jelly Bean', '4.1', 'Android'], ['21', 'KitKat', '4.4', 'Android'],
    ['22', 'Lollipop', '5.0', 'Android'], ['24', 'Marshmallow', '6.0', 'Android'], ['25', 'Nougat', '7.0', 'Android'],
    ['27', 'Oreo', '8.0', 'Android'], ['29', 'Pie', '9.0', 'Android'], ['30', 'Android 10', '10.0', 'Android'],
    ['31', 'Android 11', '11.0', 'Android'], ['32', 'Android 12', '12.0', 'Android'], ['34', 'Android 13', '13.0', 'Android'],
    ['40', 'iOS 12.0', '12.0', 'iOS'], ['41', 'iOS 13.0', '13.0', 'iOS'], ['42', 'iOS 14.0', '14.0', 'iOS'],
    ['43', 'iOS 15.0', '15.0', 'iOS'], ['44', 'iOS 16.0', '16.0', 'iOS'], ['45', 'iOS 17.0', '17.0', 'iOS'],
  ] as const
).map(([value, name, number, os_type]) => option('PLATFORM_VERSION', value, name, { number, os_type }));

/** Devices (`targeting_criteria/devices`, DEVICE criteria), with `os_type` as platform versions have it. */
export const DEVICES: readonly (TargetingOption & { manufacturer: string; os_type: string })[] = (
  [
    ['1q', 'iPhone 3GS', 'Apple', 'iOS'], ['1r', 'iPhone 4', 'Apple', 'iOS'], ['2a', 'iPhone 12', 'Apple', 'iOS'],
    ['2b', 'iPhone 13', 'Apple', 'iOS'], ['2c', 'iPhone 14', 'Apple', 'iOS'], ['2d', 'iPhone 15', 'Apple', 'iOS'],
    ['2e', 'iPad Air', 'Apple', 'iOS'], ['2f', 'iPad Pro', 'Apple', 'iOS'], ['3a', 'Galaxy S21', 'Samsung', 'Android'],
    ['3b', 'Galaxy S22', 'Samsung', 'Android'], ['3c', 'Galaxy S23', 'Samsung', 'Android'], ['3d', 'Galaxy Tab S8', 'Samsung', 'Android'],
    ['4a', 'Pixel 6', 'Google', 'Android'], ['4b', 'Pixel 7', 'Google', 'Android'], ['4c', 'Pixel 8', 'Google', 'Android'],
    ['5a', 'OnePlus 11', 'OnePlus', 'Android'],
  ] as const
).map(([value, name, manufacturer, os_type]) => option('DEVICE', value, name, { manufacturer, os_type }));

/** Network operators by country (`targeting_criteria/network_operators`, NETWORK_OPERATOR criteria). */
export const NETWORK_OPERATORS: readonly (TargetingOption & { country_code: string })[] = (
  [
    ['2l', 'US', 'Advantage'], ['1b', 'US', 'Aeris'], ['2t', 'US', 'Airadigm'], ['14', 'US', 'Airlink PCS'], ['1i', 'US', 'Airpeak'],
    ['0', 'US', 'AT&T'], ['3', 'US', 'Verizon Wireless'], ['4', 'US', 'T-Mobile'], ['5', 'US', 'Sprint'], ['6', 'US', 'US Cellular'],
    ['5k', 'CA', 'BC Tel Mobility (Telus)'], ['5l', 'CA', 'Rogers Wireless'], ['5m', 'CA', 'Bell Mobility'],
    ['7a', 'GB', 'EE'], ['7b', 'GB', 'Vodafone UK'], ['7c', 'GB', 'O2 UK'], ['7d', 'GB', 'Three UK'],
    ['8a', 'DE', 'Telekom'], ['8b', 'DE', 'Vodafone DE'], ['8c', 'DE', 'O2 Germany'],
    ['9a', 'JP', 'NTT Docomo'], ['9b', 'JP', 'SoftBank'], ['9c', 'JP', 'au (KDDI)'],
  ] as const
).map(([value, country_code, name]) => option('NETWORK_OPERATOR', value, name, { country_code }));

/** App store categories (`targeting_criteria/app_store_categories`, APP_STORE_CATEGORY criteria). */
export const APP_STORE_CATEGORIES: readonly (TargetingOption & { os_type: 'IOS' | 'ANDROID' })[] = (
  [
    ['qouq', 'Games: Music', 'IOS'], ['qov2', 'Music', 'IOS'], ['qor1', 'Games: Racing', 'IOS'], ['qoh3', 'Health & Fitness', 'IOS'],
    ['qot7', 'Travel', 'IOS'], ['qos5', 'Sports', 'IOS'], ['qop4', 'Photo & Video', 'IOS'], ['qopr', 'Productivity', 'IOS'],
    ['ra1m', 'Music & Audio', 'ANDROID'], ['ra2r', 'Racing', 'ANDROID'], ['ra3h', 'Health & Fitness', 'ANDROID'],
    ['ra4t', 'Travel & Local', 'ANDROID'], ['ra5s', 'Sports', 'ANDROID'], ['ra6p', 'Photography', 'ANDROID'], ['ra7q', 'Productivity', 'ANDROID'],
  ] as const
).map(([value, name, os_type]) => option('APP_STORE_CATEGORY', value, name, { os_type }));

/** Conversation types accepted by the `conversation_type` filter. */
export const CONVERSATION_TYPES = [
  'ACTORS', 'ATHLETES', 'BOOK_GENRES', 'BOOKS', 'BRAND_CATEGORIES', 'BRANDS', 'CELEBRITIES', 'COACHES', 'DIGITAL_CREATORS',
  'ENTERTAINMENT_BRANDS', 'ENTERTAINMENT_PERSONALITIES', 'FICTIONAL_CHARACTERS', 'JOURNALISTS', 'LIFESTYLES', 'MOVIE_GENRES',
  'MOVIES', 'MUSIC_GENRES', 'MUSICIANS', 'NEWS_STORIES', 'NEWS', 'PERSONS', 'PLACES', 'PODCASTS', 'POLITICAL_AFFILIATIONS',
  'POLITICIANS', 'PRODUCTS', 'RADIO_STATIONS', 'SPORTS_LEAGUES', 'SPORTS_PERSONALITIES', 'SPORTS_TEAMS', 'SPORTS', 'TRENDS',
  'TV_SHOWS', 'VIDEO_GAME_PLATFORMS', 'VIDEO_GAME_PUBLISHERS', 'VIDEO_GAMES',
] as const;

/** Conversations (`targeting_criteria/conversations`, CONVERSATION criteria). */
export const CONVERSATIONS: readonly (TargetingOption & { conversation_type: string })[] = (
  [
    ['a1', 'NFL', 'SPORTS'], ['a2', 'NBA', 'SPORTS'], ['a3', 'Major League Baseball', 'SPORTS_LEAGUES'],
    ['a4', 'Premier League', 'SPORTS_LEAGUES'], ['b1', 'Hip hop', 'MUSIC_GENRES'], ['b2', 'Jazz', 'MUSIC_GENRES'],
    ['c1', 'Hiking', 'LIFESTYLES'], ['c2', 'Camping', 'LIFESTYLES'], ['c3', 'Trail running', 'LIFESTYLES'],
    ['d1', 'Outdoor gear', 'PRODUCTS'], ['d2', 'Electric bikes', 'PRODUCTS'], ['e1', 'National parks', 'PLACES'],
  ] as const
).map(([value, name, conversation_type]) => option('CONVERSATION', value, name, { conversation_type }));

/** AGE criterion values (one per line item) and the names the criteria get. */
export const AGE_BUCKETS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    'AGE_13_TO_24', 'AGE_13_TO_34', 'AGE_13_TO_49', 'AGE_13_TO_54', 'AGE_OVER_13', 'AGE_18_TO_34', 'AGE_18_TO_49',
    'AGE_18_TO_54', 'AGE_OVER_18', 'AGE_21_TO_34', 'AGE_21_TO_49', 'AGE_21_TO_54', 'AGE_OVER_21', 'AGE_25_TO_49',
    'AGE_25_TO_54', 'AGE_OVER_25', 'AGE_35_TO_49', 'AGE_35_TO_54', 'AGE_OVER_35', 'AGE_OVER_50',
  ].map((bucket) => {
    const over = /^AGE_OVER_(\d+)$/.exec(bucket);
    const range = /^AGE_(\d+)_TO_(\d+)$/.exec(bucket);
    return [bucket, over !== null ? `Age ${over[1]} and over` : `Age ${range![1]} to ${range![2]}`];
  }),
);

/** GENDER criterion values: 1 male, 2 female. */
export const GENDERS: Readonly<Record<string, string>> = { '1': 'Male', '2': 'Female' };

/** ENGAGEMENT_TYPE criterion values. */
export const ENGAGEMENT_TYPES: Readonly<Record<string, string>> = { IMPRESSION: 'Impression', ENGAGEMENT: 'Engagement' };
