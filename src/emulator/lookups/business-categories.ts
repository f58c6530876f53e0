/**
 * Advertiser business categories (`GET advertiser_business_categories`): what an advertiser
 * sells, each mapped to the IAB categories it stands for. They apply only to line items with the
 * PREROLL_VIEWS objective and are separate from the content categories used for targeting. Every
 * IAB id here exists in iab-categories.ts.
 */

/** One advertiser business category exactly as the service returns it. */
interface BusinessCategory {
  id: string;
  name: string;
  iab_categories: readonly string[];
}

/** Every advertiser business category, in the order the list returns them. */
export const BUSINESS_CATEGORIES: readonly BusinessCategory[] = [
  { id: '1v', name: 'Automotive', iab_categories: ['IAB2', 'IAB2-1', 'IAB2-3', 'IAB2-10'] },
  { id: '2p', name: 'Beauty & Personal Care', iab_categories: ['IAB18-1', 'IAB18-3'] },
  { id: '3k', name: 'Consumer Packaged Goods', iab_categories: ['IAB8', 'IAB22', 'IAB22-2'] },
  { id: '4f', name: 'Education', iab_categories: ['IAB5', 'IAB5-2', 'IAB5-6'] },
  { id: '5r', name: 'Gaming', iab_categories: ['IAB9-30'] },
  { id: '6m', name: 'Media & Entertainment', iab_categories: ['IAB1', 'IAB1-5', 'IAB1-6', 'IAB1-7'] },
  { id: '7h', name: 'Financial Services', iab_categories: ['IAB13', 'IAB13-2', 'IAB13-7', 'IAB13-6'] },
  { id: '8c', name: 'Food & Beverage', iab_categories: ['IAB8', 'IAB8-5', 'IAB8-6', 'IAB8-9'] },
  { id: '9x', name: 'Health & Wellness', iab_categories: ['IAB7', 'IAB7-1', 'IAB7-32', 'IAB7-44'] },
  { id: 'as', name: 'Home & Garden', iab_categories: ['IAB10', 'IAB10-1', 'IAB10-4', 'IAB10-9'] },
  { id: 'bn', name: 'Retail', iab_categories: ['IAB22', 'IAB22-1', 'IAB18-5', 'IAB18-6'] },
  { id: 'ci', name: 'Sports & Outdoors', iab_categories: ['IAB17', 'IAB17-3', 'IAB17-8', 'IAB20-9'] },
  { id: 'dd', name: 'Technology', iab_categories: ['IAB19', 'IAB19-6', 'IAB19-18', 'IAB3-4'] },
  { id: 'e8', name: 'Telecommunications', iab_categories: ['IAB19-6', 'IAB19-8'] },
  { id: 'f3', name: 'Travel & Hospitality', iab_categories: ['IAB20', 'IAB20-3', 'IAB20-12', 'IAB20-18'] },
  { id: 'fy', name: 'Real Estate', iab_categories: ['IAB21', 'IAB21-1', 'IAB21-3'] },
];
