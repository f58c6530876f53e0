/**
 * The values the service gives fields a create leaves out, as the kind descriptors know them
 * (`serviceDefault`, read by `adsctl generate` to leave them out of what it writes), against the
 * emulator's own copy of the service's rules (src/emulator/handlers/line-item-rules.ts): a
 * generated manifest that wrote a default the descriptors got wrong would pin a value the user
 * never chose, and one that left out a value the service did not give would lose it.
 */
import { describe, expect, it } from 'vitest';
import { GOALS_BY_OBJECTIVE, OBJECTIVES, PAY_BY_DEFAULT } from '../../src/emulator/handlers/line-item-rules.js';
import { KINDS } from '../../src/kinds/registry.js';

const defaultOf = (kind: keyof typeof KINDS, field: string, record: Record<string, unknown>): unknown => KINDS[kind].attributes.find((r) => r.field === field)?.serviceDefault?.(record);

describe('service defaults in the descriptors', () => {
  it.each(OBJECTIVES)('a line item of objective %s: its goal and billing as the emulator gives them', (objective) => {
    expect(defaultOf('line_item', 'goal', { objective })).toBe(GOALS_BY_OBJECTIVE[objective][0]);
    expect(defaultOf('line_item', 'pay_by', { objective })).toBe(PAY_BY_DEFAULT[objective]);
    expect(defaultOf('line_item', 'bid_strategy', { objective })).toBe('AUTO');
    expect(defaultOf('line_item', 'standard_delivery', { objective })).toBe(true);
  });

  it('no field has both a fallback, which the diff fills in, and a service default, which it never reads', () => {
    const both = Object.values(KINDS).flatMap((d) => d.attributes.filter((r) => r.fallback !== undefined && r.serviceDefault !== undefined).map((r) => `${d.kind}.${r.field}`));
    expect(both).toEqual([]);
  });
});
