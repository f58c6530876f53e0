/**
 * Curated categories (`GET accounts/:account_id/curated_categories`): groups of video publishers
 * that pre-roll line items can target. A category is offered only in its `country_codes`; the
 * same list serves every account. Line item curated categories refer to these ids.
 */

/** One curated category exactly as the service returns it. */
export interface CuratedCategory {
  id: string;
  name: string;
  description: string;
  /** ISO 3166-1 alpha-2 codes of the countries where the category is available. */
  country_codes: readonly string[];
  publisher_user_ids: readonly string[];
  videos_monetized_in_last_thirty_days: number;
  created_at: string;
  updated_at: string;
}

const CREATED = '2021-06-14T17:00:00Z';
const UPDATED = '2026-01-01T00:00:00Z';

/** Every curated category, in the order lists return them. */
export const CURATED_CATEGORIES: readonly CuratedCategory[] = [
  {
    id: '1hd2',
    name: 'US Sports',
    description: 'Highlights, analysis and live moments from US leagues and college sports.',
    country_codes: ['US'],
    publisher_user_ids: ['26257166', '32277707', '19426551', '18479513'],
    videos_monetized_in_last_thirty_days: 48_310,
    created_at: CREATED,
    updated_at: UPDATED,
  },
  {
    id: '1hd3',
    name: 'Football (Soccer)',
    description: 'Clubs, leagues and federations publishing match clips and interviews.',
    country_codes: ['GB', 'ES', 'FR', 'DE', 'BR', 'MX'],
    publisher_user_ids: ['14573900', '20536157', '15143478'],
    videos_monetized_in_last_thirty_days: 61_204,
    created_at: CREATED,
    updated_at: UPDATED,
  },
  {
    id: '1hd4',
    name: 'News and Current Events',
    description: 'Broadcast and digital newsrooms covering national and world news.',
    country_codes: ['US', 'GB', 'CA', 'AU'],
    publisher_user_ids: ['759251', '807095', '742143', '5402612'],
    videos_monetized_in_last_thirty_days: 35_877,
    created_at: CREATED,
    updated_at: UPDATED,
  },
  {
    id: '1hd5',
    name: 'Entertainment and Pop Culture',
    description: 'Celebrity news, film and television trailers, award shows.',
    country_codes: ['US', 'CA', 'GB'],
    publisher_user_ids: ['16280105', '19923144', '14920785'],
    videos_monetized_in_last_thirty_days: 22_415,
    created_at: CREATED,
    updated_at: UPDATED,
  },
  {
    id: '1hd6',
    name: 'Music',
    description: 'Labels, festivals and artists publishing performances and behind-the-scenes clips.',
    country_codes: ['US', 'GB', 'JP', 'BR'],
    publisher_user_ids: ['15846407', '17919972'],
    videos_monetized_in_last_thirty_days: 12_093,
    created_at: CREATED,
    updated_at: UPDATED,
  },
  {
    id: '1hd7',
    name: 'Gaming and Esports',
    description: 'Game publishers, esports leagues and tournament broadcasts.',
    country_codes: ['US', 'JP', 'KR', 'DE', 'FR'],
    publisher_user_ids: ['27082024', '1316506938', '260953307'],
    videos_monetized_in_last_thirty_days: 17_560,
    created_at: CREATED,
    updated_at: UPDATED,
  },
  {
    id: '1hd8',
    name: 'Business and Finance',
    description: 'Markets coverage, earnings commentary and personal finance explainers.',
    country_codes: ['US', 'GB', 'IN'],
    publisher_user_ids: ['34713362', '69620713', '20402945'],
    videos_monetized_in_last_thirty_days: 8_742,
    created_at: CREATED,
    updated_at: UPDATED,
  },
  {
    id: '1hd9',
    name: 'Food and Lifestyle',
    description: 'Recipes, travel, home and style publishers.',
    country_codes: ['US', 'CA', 'AU'],
    publisher_user_ids: ['15187217', '16193578'],
    videos_monetized_in_last_thirty_days: 5_318,
    created_at: CREATED,
    updated_at: UPDATED,
  },
  {
    id: '1hda',
    name: 'Cricket',
    description: 'International and franchise cricket highlights and analysis.',
    country_codes: ['IN', 'GB', 'AU'],
    publisher_user_ids: ['177547780', '1391818315', '7213352'],
    videos_monetized_in_last_thirty_days: 29_664,
    created_at: CREATED,
    updated_at: UPDATED,
  },
  {
    id: '1hdb',
    name: 'Anime and Animation',
    description: 'Studios and streaming publishers of anime series and animated film clips.',
    country_codes: ['JP', 'US'],
    publisher_user_ids: ['1110487855', '73045013'],
    videos_monetized_in_last_thirty_days: 9_201,
    created_at: CREATED,
    updated_at: UPDATED,
  },
];

/** The curated category with this id, or undefined. */
export function curatedCategory(id: string): CuratedCategory | undefined {
  return CURATED_CATEGORIES.find((c) => c.id === id);
}
