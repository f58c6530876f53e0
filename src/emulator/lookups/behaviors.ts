/**
 * Behavior targeting options and their taxonomy (`GET /12/targeting_criteria/behaviors` and
 * `behavior_taxonomies`). Shapes follow the official SDKs' models: a behavior has `id`, `name`,
 * `targeting_type` BEHAVIOR, `targeting_value`, `audience_code`, `country_code`, `partner_source`
 * and `targetable_type`; a taxonomy node has `id`, `name`, `parent_id` (null at the top),
 * `created_at` and `updated_at`. The emulator's catalogue is small and fixed.
 */

/** One node of the behavior taxonomy. */
interface BehaviorTaxonomy {
  id: string;
  name: string;
  parent_id: string | null;
  created_at: string;
  updated_at: string;
}

/** One behavior a line item can target. */
interface Behavior {
  id: string;
  name: string;
  targeting_type: 'BEHAVIOR';
  targeting_value: string;
  audience_code: string;
  country_code: string;
  partner_source: string;
  targetable_type: 'BEHAVIOR';
}

const AT = '2017-03-01T00:00:00Z';

/** Top-level categories, each with its subcategories; behaviors sit under the subcategories. */
const TREE: ReadonlyArray<[string, ReadonlyArray<[string, readonly string[]]>]> = [
  ['Automotive', [['Vehicle purchase', ['New car buyers', 'Used car buyers', 'Electric vehicle shoppers']], ['Ownership', ['SUV owners', 'Truck owners']]]],
  ['Financial', [['Credit', ['Premium card holders', 'New credit seekers']], ['Investing', ['Active traders', 'Retirement planners']]]],
  ['Retail', [['Apparel', ['Outdoor apparel buyers', 'Luxury fashion buyers']], ['Home', ['Home improvement shoppers', 'Furniture buyers', 'Gardening supplies buyers']]]],
  ['Travel', [['Air', ['Frequent flyers', 'Business travelers']], ['Leisure', ['Cruise travelers', 'Family vacationers']]]],
];

const PARTNERS = ['DATALOGIX', 'ACXIOM', 'EPSILON'] as const;

/** Every taxonomy node, parents before children. */
export const BEHAVIOR_TAXONOMIES: readonly BehaviorTaxonomy[] = TREE.flatMap(([top, subs], t) => {
  const topId = `b${(t + 1).toString(36)}`;
  return [
    { id: topId, name: top, parent_id: null, created_at: AT, updated_at: AT },
    ...subs.map(([sub], s) => ({ id: `${topId}${(s + 1).toString(36)}`, name: `${top}/${sub}`, parent_id: topId, created_at: AT, updated_at: AT })),
  ];
});

/** Every behavior, in taxonomy order; all US audiences. */
export const BEHAVIORS: readonly Behavior[] = TREE.flatMap(([top, subs], t) =>
  subs.flatMap(([sub, names], s) =>
    names.map((name, n) => {
      const value = `l${(t + 1).toString(36)}${(s + 1).toString(36)}${(n + 1).toString(36)}`;
      return {
        id: value,
        name: `${top}/${sub}/${name}`,
        targeting_type: 'BEHAVIOR' as const,
        targeting_value: value,
        audience_code: `${PARTNERS[(t + s + n) % PARTNERS.length]!.slice(0, 3)}-${1000 + t * 100 + s * 10 + n}`,
        country_code: 'US',
        partner_source: PARTNERS[(t + s + n) % PARTNERS.length]!,
        targetable_type: 'BEHAVIOR' as const,
      };
    }),
  ),
);
