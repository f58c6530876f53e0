/**
 * What serves with no creative opens every form of the plan (src/render/without-creative.ts): the
 * JSON document's `serving_without_creative` (format 2.6) right after its mode, the text's first
 * section and the Markdown's head, each naming the line item and the creatives the apply adds first.
 */
import { describe, expect, it } from 'vitest';
import { renderPlan } from '../../src/render/render.js';
import { accountPlan, change, plan } from './plan-builder.js';

const LI = 'campaigns.summer.line_items.us';
const POST = `${LI}.promoted_posts["1346184843449303040"]`;

const repaired = plan([
  {
    ...accountPlan(
      [
        change(LI, 'noop', { id: '1169h3', before: { entity_status: 'ACTIVE' }, after: { entity_status: 'ACTIVE' } }),
        change(POST, 'create', { after: { line_item_id: '1169h3', tweet_id: '1346184843449303040' } }),
        change('campaigns.summer', 'update', { changes: [{ path: 'name', before: 'Summer', after: 'Summer sale', origin: 'drift', forcesReplacement: false }] }),
      ],
      { account: 'acme', accountId: '18ce54d4x5t', name: 'Acme' },
    ),
    withoutCreative: [{ address: LI, kind: 'line_item', id: '1169h3', repairs: [POST] }],
  },
]);

describe('a line item serving without a creative', () => {
  it('comes first in the JSON plan, after its format and mode', () => {
    const json = renderPlan(repaired, 'json');
    const doc = JSON.parse(json) as Record<string, unknown>;
    expect(doc['format_version']).toBe('2.8');
    expect(Object.keys(doc).slice(0, 4)).toEqual(['format_version', 'mode', 'serving_without_creative', 'accounts']);
    expect(doc['serving_without_creative']).toEqual([{ account: 'acme', address: LI, type: 'line_item', id: '1169h3', repaired_by: [POST] }]);
  });

  it('is left out of a JSON plan where nothing serves without a creative', () => {
    const doc = JSON.parse(renderPlan(plan([accountPlan([change(POST, 'create', { after: { tweet_id: '1' } })])]), 'json')) as Record<string, unknown>;
    expect('serving_without_creative' in doc).toBe(false);
  });

  it('opens the text plan, before what changed outside adsctl, naming the line item and the post added first', () => {
    const text = renderPlan(repaired, 'text', { color: false });
    expect(text.startsWith('Serving without a creative\n')).toBe(true);
    expect(text).toContain(`  ${LI} (line item 1169h3) serves with no creative: the apply adds promoted_posts["1346184843449303040"] first\n`);
    expect(text.indexOf('Serving without a creative')).toBeLessThan(text.indexOf('Objects changed outside adsctl'));
  });

  it('is in the head of the Markdown plan, which is never cut', () => {
    const md = renderPlan(repaired, 'markdown');
    const line = md.split('\n').find((l) => l.startsWith('> **Serving without a creative:**'));
    expect(line).toBe(`> **Serving without a creative:** in account "Acme" (18ce54d4x5t), campaigns.summer.line\\_items.us (line item 1169h3) serves with no creative: the apply adds promoted\\_posts\\["1346184843449303040"\\] first, before any other write.`);
    expect(md.indexOf(line!)).toBeLessThan(md.indexOf('| Account |'));
  });
});
