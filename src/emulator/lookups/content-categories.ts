/**
 * Content categories (`GET content_categories`): the topics of content a line item can be placed
 * next to, each mapped to one or more IAB categories; they are used as targeting criteria of an
 * IAB-category targeting type. The spec does not show the record's fields; the emulator serves
 * `id`, `name` and `iab_categories`, like the advertiser business categories. Every IAB id here
 * exists in iab-categories.ts.
 */

/** One content category as the emulator returns it. */
interface ContentCategory {
  id: string;
  name: string;
  iab_categories: readonly string[];
}

/** Every content category, in the order the list returns them. */
export const CONTENT_CATEGORIES: readonly ContentCategory[] = [
  { id: 'd', name: 'Automotive', iab_categories: ['IAB2', 'IAB2-4', 'IAB2-17', 'IAB17-1'] },
  { id: 'e', name: 'Business & Finance', iab_categories: ['IAB3', 'IAB13', 'IAB13-3'] },
  { id: 'f', name: 'Comedy', iab_categories: ['IAB1-4'] },
  { id: 'g', name: 'Entertainment & Pop Culture', iab_categories: ['IAB1', 'IAB1-2', 'IAB1-5', 'IAB1-7'] },
  { id: 'h', name: 'Esports & Gaming', iab_categories: ['IAB9-30', 'IAB9-25'] },
  { id: 'i', name: 'Food & Drink', iab_categories: ['IAB8', 'IAB8-8', 'IAB8-9'] },
  { id: 'j', name: 'Health & Fitness', iab_categories: ['IAB7', 'IAB7-1', 'IAB7-32'] },
  { id: 'k', name: 'Music', iab_categories: ['IAB1-6', 'IAB9-16'] },
  { id: 'l', name: 'News & Current Events', iab_categories: ['IAB12', 'IAB12-1', 'IAB12-2', 'IAB12-3', 'IAB11-4'] },
  { id: 'm', name: 'Science & Technology', iab_categories: ['IAB15', 'IAB19', 'IAB15-7'] },
  { id: 'n', name: 'Sports', iab_categories: ['IAB17', 'IAB17-2', 'IAB17-12', 'IAB17-26', 'IAB17-44'] },
  { id: 'o', name: 'Style & Beauty', iab_categories: ['IAB18', 'IAB18-1', 'IAB18-3'] },
  { id: 'p', name: 'Travel', iab_categories: ['IAB20', 'IAB20-1', 'IAB20-18'] },
  { id: 'q', name: 'Family & Parenting', iab_categories: ['IAB6', 'IAB6-2', 'IAB6-6'] },
];
