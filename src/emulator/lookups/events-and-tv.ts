/**
 * Event and TV targeting values: `targeting_criteria/events` (EVENT criteria; yearly holidays,
 * conferences and festivals for 2025–2030, in UTC as the service represents them),
 * `targeting_criteria/tv_markets` (the documented markets) and `targeting_criteria/tv_shows`
 * (TV_SHOW criteria; a few shows per market, emulator-made).
 */

/** Values of the `event_types` filter and of `event_type`. */
export const EVENT_TYPES = ['CONFERENCE', 'HOLIDAY', 'MUSIC_AND_ENTERTAINMENT', 'OTHER', 'POLITICS', 'RECURRING', 'SPORTS'] as const;

/** One event type. */
type EventType = (typeof EVENT_TYPES)[number];

/** An item of `targeting_criteria/events`, in the documented shape. */
interface EventOption {
  reach: { total_reach: number | null };
  name: string;
  start_time: string;
  top_users: string[];
  top_tweets: string[];
  top_hashtags: string[];
  gender_breakdown_percentage: Record<string, number>;
  end_time: string;
  country_code: string | null;
  device_breakdown_percentage: Record<string, number>;
  targeting_value: string;
  is_global: boolean;
  event_type: EventType;
  country_breakdown_percentage: Record<string, number>;
}

/** name, type, country (null: global), start month-day (relative year offset), days long. */
const YEARLY: ReadonlyArray<readonly [string, EventType, string | null, number, string, number]> = [
  ["New Year's", 'HOLIDAY', null, -1, '12-31', 2],
  ["Valentine's Day", 'HOLIDAY', null, 0, '02-14', 1],
  ['CES', 'CONFERENCE', 'US', 0, '01-06', 4],
  ['Glastonbury Festival', 'MUSIC_AND_ENTERTAINMENT', 'GB', 0, '06-24', 5],
  ['Independence Day', 'HOLIDAY', 'US', 0, '07-04', 1],
  ['Halloween', 'HOLIDAY', null, 0, '10-31', 1],
  ['Christmas', 'HOLIDAY', null, 0, '12-24', 2],
];

const day = (iso: string, plus: number): string => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + plus);
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
};

/** Every event, by year then in the order above. */
export const EVENTS: readonly EventOption[] = [2025, 2026, 2027, 2028, 2029, 2030].flatMap((year) =>
  YEARLY.map(([name, event_type, country_code, yearOffset, monthDay, days], i) => {
    const start = `${year + yearOffset}-${monthDay}`;
    return {
      reach: { total_reach: null },
      name,
      start_time: day(start, 0),
      top_users: [],
      top_tweets: [],
      top_hashtags: [],
      gender_breakdown_percentage: {},
      end_time: day(start, days),
      country_code,
      device_breakdown_percentage: {},
      targeting_value: (year * 10 + i).toString(36),
      is_global: country_code === null,
      event_type,
      country_breakdown_percentage: {},
    };
  }),
);

/** TV markets (`targeting_criteria/tv_markets`), as documented. */
export const TV_MARKETS: ReadonlyArray<{ name: string; country_code: string; locale: string }> = (
  [
    ['France', 'FR', 'fr-FR'], ['Chile', 'CL', 'es-CL'], ['Germany', 'DE', 'de-DE'], ['Netherlands', 'NL', 'nl-NL'],
    ['United States', 'US', 'en-US'], ['Venezuela', 'VE', 'es-VE'], ['Brazil', 'BR', 'pt-BR'], ['Mexico', 'MX', 'es-MX'],
    ['Colombia', 'CO', 'es-CO'], ['United Kingdom', 'GB', 'en-GB'], ['Argentina', 'AR', 'es-AR'], ['Japan', 'JP', 'ja-JP'],
    ['Canada', 'CA', 'en-CA'], ['Spain', 'ES', 'es-ES'], ['Italy', 'IT', 'it-IT'], ['United States - Hispanic', 'US', 'es-US'],
    ['Ireland', 'IE', 'en-IE'],
  ] as const
).map(([name, country_code, locale]) => ({ name, country_code, locale }));

/** An item of `targeting_criteria/tv_shows`; its targeting value is a number, as documented. */
interface TvShowOption {
  name: string;
  targeting_value: number;
  genre: string;
  locales: Array<{ language: string; country: string }>;
}

/** TV shows, each in one market locale. */
export const TV_SHOWS: readonly TvShowOption[] = (
  [
    ['NewsWatch', 10027243420, 'PAID', 'en-US'],
    ['Sunday Night Football', 10027243421, 'SPORTS', 'en-US'],
    ['Trail Masters', 10027243422, 'REALITY', 'en-US'],
    ['Late Night Laughs', 10027243423, 'COMEDY', 'en-US'],
    ['Noticias Esta Noche', 10027243424, 'NEWS', 'es-US'],
    ['Match of the Week', 20027243420, 'SPORTS', 'en-GB'],
    ['Great Outdoors Britain', 20027243421, 'REALITY', 'en-GB'],
    ['Noticias Nocturnas', 30027243420, 'NEWS', 'es-MX'],
    ['アウトドア日和', 40027243420, 'REALITY', 'ja-JP'],
    ['Le Journal du Soir', 50027243420, 'NEWS', 'fr-FR'],
    ['Sportschau am Abend', 60027243420, 'SPORTS', 'de-DE'],
  ] as const
).map(([name, targeting_value, genre, locale]) => {
  const [language, country] = locale.split('-') as [string, string];
  return { name, targeting_value, genre, locales: [{ language, country }] };
});
