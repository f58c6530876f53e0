/**
 * Interest targeting values (`GET targeting_criteria/interests`, INTEREST criteria): a two-level
 * taxonomy named `Category/Subcategory`, valued `<category number><subcategory, three digits>`, so
 * that `1001` is "Books and literature/Biographies and memoirs" as in the service's documentation.
 * There are more than the 100 interests a line item may target, so the limit can be reached.
 */
import type { TargetingOption } from './targeting-values.js';

const TAXONOMY: ReadonlyArray<readonly [category: string, subcategories: readonly string[]]> = [
  ['Books and literature', ['Biographies and memoirs', 'Comics', 'Fiction', 'Non-fiction', 'Poetry', 'Science fiction and fantasy']],
  ['Business', ['Advertising', 'Business news and general info', 'Entrepreneurship', 'Marketing', 'Leadership', 'Small business']],
  ['Automotive', ['Car culture', 'Electric vehicles', 'Motorcycles', 'Trucks', 'Car news']],
  ['Beauty', ['Fragrances', 'Hair care', 'Makeup', 'Skin care', 'Nail care']],
  ['Careers', ['Job search', 'Remote work', 'Career advice', 'Internships']],
  ['Education', ['College life', 'Online learning', 'Teaching', 'Language learning', 'Homeschooling']],
  ['Events', ['Concerts', 'Conferences', 'Festivals', 'Holidays']],
  ['Family and parenting', ['Adoption', 'Parenting', 'Pregnancy', 'Weddings', 'Family travel']],
  ['Food and drink', ['Beer', 'Cooking', 'Coffee and tea', 'Vegetarian', 'Wine', 'Restaurants', 'Baking']],
  ['Gaming', ['Console gaming', 'Mobile gaming', 'PC gaming', 'Esports', 'Game news']],
  ['Health', ['Fitness', 'Nutrition', 'Mental health', 'Running', 'Yoga', 'Sleep']],
  ['Hobbies and interests', ['Camping', 'Gardening', 'Hiking', 'Photography', 'Fishing', 'Arts and crafts', 'Birdwatching']],
  ['Home and garden', ['Home improvement', 'Interior design', 'Landscaping', 'Real estate']],
  ['Law, government, and politics', ['Government', 'Law', 'Politics', 'Elections']],
  ['Movies and television', ['Action and adventure', 'Comedy', 'Documentary', 'Drama', 'Horror', 'Reality TV', 'Animation']],
  ['Music and radio', ['Classical', 'Country', 'Hip hop and rap', 'Jazz', 'Pop', 'Rock', 'Electronic', 'Podcasts']],
  ['Personal finance', ['Banking', 'Credit cards', 'Investing', 'Retirement planning', 'Cryptocurrency', 'Insurance']],
  ['Pets', ['Cats', 'Dogs', 'Fish and aquariums', 'Horses']],
  ['Science', ['Astronomy', 'Biology', 'Chemistry', 'Physics', 'Space', 'Environment']],
  ['Sports', ['Baseball', 'Basketball', 'Cycling', 'Football', 'Golf', 'Hockey', 'Soccer', 'Tennis', 'Skiing and snowboarding', 'Surfing', 'Climbing']],
  ['Style and fashion', ['Accessories', 'Clothing', 'Footwear', 'Jewelry', 'Outdoor apparel']],
  ['Technology and computing', ['Cloud computing', 'Cybersecurity', 'Mobile', 'Programming', 'Artificial intelligence', 'Gadgets', 'Open source']],
  ['Travel', ['Adventure travel', 'Air travel', 'Beach travel', 'Hotels and lodging', 'National parks', 'Road trips']],
];

/** Every interest, in taxonomy order. */
export const INTERESTS: readonly TargetingOption[] = TAXONOMY.flatMap(([category, subs], c) =>
  subs.map((sub, s) => ({ name: `${category}/${sub}`, targeting_type: 'INTEREST', targeting_value: String((c + 1) * 1000 + s + 1) })),
);
