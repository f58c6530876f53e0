/**
 * What an import adopts, from the descriptors alone (src/kinds/adoption.ts): the children of a
 * campaign, a line item or a custom audience, each by the fields that recognise it.
 */
import { describe, expect, it } from 'vitest';
import { ADOPTED, ADOPTING_PARENTS } from '../../src/kinds/adoption.js';

describe('adoption identities', () => {
  it('recognises each child kind by its identity, the parent field left out', () => {
    expect(Object.fromEntries([...ADOPTED].map(([kind, identity]) => [kind, identity.fields]))).toEqual({
      line_item: ['name', 'product_type', 'objective'],
      targeting_criterion: ['targeting_type', 'targeting_value', 'operator_type'],
      line_item_curated_category: ['curated_category_id'],
      promoted_post: ['tweet_id'],
      promoted_account: ['user_id'],
      media_creative: ['account_media_id'],
      audience_permission: ['granted_account_id'],
      tailored_audience_permission: ['granted_account_id'],
    });
  });

  it("fills in a criterion's operator the way a lost create is found", () => {
    expect(ADOPTED.get('targeting_criterion')?.defaults).toEqual({ operator_type: 'EQ' });
  });

  it('adopts under campaigns, line items and custom audiences only: never under the account', () => {
    expect([...ADOPTING_PARENTS].sort()).toEqual(['campaign', 'custom_audience', 'line_item']);
  });
});
