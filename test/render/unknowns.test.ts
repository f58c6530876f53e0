/**
 * Values known only after apply in the JSON plan, as `terraform show -json` writes them: `after`
 * holds only known values, `after_unknown` marks the unknown ones, and the text and Markdown
 * plans, rendered from that document, show them as `(known after apply)`.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/diff/types.js';
import { planToDocument } from '../../src/render/plan-document.js';
import { renderPlan } from '../../src/render/render.js';
import { afterUnknown, knownPart, marksUnknown, unknownMask, type UnknownMask } from '../../src/render/unknowns.js';
import { accountPlan, attr, change, plan } from './plan-builder.js';

const ref = (address: string) => ({ $ref: address });

describe('knownPart and unknownMask', () => {
  it.each<[string, unknown, unknown, UnknownMask]>([
    ['a known scalar', 'x', 'x', false],
    ['null', null, null, false],
    ['an unknown value', ref('campaigns.a'), undefined, true],
    ['an unknown with extra fields', { $ref: 'campaigns.a', prefix: 'c-' }, undefined, true],
    ['an object with a $ref that is not a string (known)', { $ref: 1 }, { $ref: 1 }, {}],
    ['a known array', ['a', 'b'], ['a', 'b'], [false, false]],
    ['an array with an unknown element', ['a', ref('x')], ['a', null], [false, true]],
    ['an empty array', [], [], []],
    ['a known object', { a: 1, b: 'x' }, { a: 1, b: 'x' }, {}],
    ['an object with an unknown member', { a: 1, b: ref('x') }, { a: 1 }, { b: true }],
    ['nested objects and arrays', { o: { p: [ref('x'), 2], q: 1 }, r: [{ s: ref('y') }] }, { o: { p: [null, 2], q: 1 }, r: [{}] }, { o: { p: [true, false] }, r: [{ s: true }] }],
  ])('%s', (_name, value, known, mask) => {
    expect(knownPart(value)).toEqual(known);
    expect(unknownMask(value)).toEqual(mask);
    expect(marksUnknown(mask)).toBe(JSON.stringify(mask).includes('true'));
  });
});

describe('afterUnknown', () => {
  it.each<[string, Record<string, unknown> | null, Record<string, UnknownMask>]>([
    ['a delete', null, {}],
    ['nothing unknown, arrays and objects included', { a: 1, list: ['x'], obj: { k: 'v' } }, {}],
    ['an unknown attribute', { name: 'n', campaign_id: ref('campaigns.a') }, { campaign_id: true }],
    ['an unknown beside known arrays and objects, mirrored as Terraform does', { id: ref('a'), list: ['x'], obj: { k: 'v' }, n: null }, { id: true, list: [false], obj: {} }],
  ])('%s', (_name, after, expected) => {
    expect(afterUnknown(after)).toEqual(expected);
  });
});

describe('the plan document', () => {
  it.each<[string, Action, Record<string, unknown> | null, Record<string, unknown> | null, Record<string, UnknownMask>]>([
    ['a create with a reference to a new parent', 'create', { name: 'US', campaign_id: ref('campaigns.c') }, { name: 'US' }, { campaign_id: true }],
    ['a create with nothing unknown', 'create', { name: 'US', placements: ['ALL_ON_TWITTER'] }, { name: 'US', placements: ['ALL_ON_TWITTER'] }, {}],
    ['a create with an array partly unknown', 'create', { media_keys: ['k1', ref('media.m2')] }, { media_keys: ['k1', null] }, { media_keys: [false, true] }],
    ['a delete', 'delete', null, null, {}],
    ['a no-op', 'noop', { name: 'x' }, { name: 'x' }, {}],
  ])('%s: after holds only known values, after_unknown marks the rest', (_name, action, after, expectedAfter, expectedUnknown) => {
    const doc = planToDocument(plan([accountPlan([change('campaigns.c.line_items.us', action, { after, before: action === 'create' ? null : { name: 'x' } })])]));
    expect(doc.resource_changes[0]?.change.after).toEqual(expectedAfter);
    expect(doc.resource_changes[0]?.change.after_unknown).toEqual(expectedUnknown);
  });

  it('never prints the internal $ref object, in after or in the attribute list', () => {
    const p = plan([accountPlan([change('campaigns.c.line_items.us.promoted_posts["1"]', 'replace', { id: 'p1', reason: 'replace_parent', changes: [attr('line_item_id', 'li1', ref('campaigns.c.line_items.us'), { forces: true })] }, { tweet_id: '1' })])]);
    const json = renderPlan(p, 'json');
    expect(json).not.toContain('$ref');
    const rc = planToDocument(p).resource_changes[0];
    expect(rc?.change.after).toEqual({ tweet_id: '1' });
    expect(rc?.change.after_unknown).toEqual({ line_item_id: true });
    expect(rc?.change.attributes).toEqual([{ path: 'line_item_id', before: 'li1', after: null, after_unknown: true, origin: 'manifest', forces_replacement: true }]);
  });

  it('leaves after_unknown out of an attribute whose desired value is known', () => {
    const doc = planToDocument(plan([accountPlan([change('campaigns.c', 'update', { changes: [attr('name', 'a', 'b'), attr('list', ['x'], ['x', 'y'])] })])]));
    expect(doc.resource_changes[0]?.change.attributes.every((a) => !('after_unknown' in a))).toBe(true);
  });
});

describe('(known after apply) in the text and Markdown plans', () => {
  it.each<[string, ReturnType<typeof change>, string[]]>([
    ['a create', change('campaigns.c.line_items.us', 'create', { after: { name: 'US', campaign_id: ref('campaigns.c') } }), ['      + campaign_id = (known after apply)\n', '      + name        = "US"\n']],
    ['a create with an array partly unknown', change('campaigns.c', 'create', { after: { name: 'C', media_keys: ['k1', ref('m')] } }), ['      + media_keys = (known after apply)\n']],
    [
      'a replacement because the parent is replaced',
      change('campaigns.c.line_items.us.promoted_posts["1"]', 'replace', { id: 'p1', reason: 'replace_parent', changes: [attr('line_item_id', 'li1', ref('campaigns.c.line_items.us'), { forces: true })] }, { tweet_id: '1' }),
      ['      ~ line_item_id = "li1" -> (known after apply) # forces replacement\n', '        # (1 unchanged attribute hidden)\n'],
    ],
    ['an update to a new object', change('campaigns.c', 'update', { id: 'c1', changes: [attr('funding_instrument_id', 'fi1', ref('funding_instruments.new'))] }), ['      ~ funding_instrument_id = "fi1" -> (known after apply)\n']],
    ['an attribute set to an unknown value where there was none', change('campaigns.c', 'update', { id: 'c1', changes: [attr('funding_instrument_id', null, ref('funding_instruments.new'))] }), ['      + funding_instrument_id = (known after apply)\n']],
  ])('%s', (_name, c, lines) => {
    const p = plan([accountPlan([c])]);
    const text = renderPlan(p, 'text');
    const markdown = renderPlan(p, 'markdown');
    for (const line of lines) {
      expect(text).toContain(line);
      const symbol = /^(\s*)([+~])/.exec(line);
      expect(markdown).toContain(symbol === null ? line : `${symbol[2] === '~' ? '!' : '+'}${symbol[1]}${line.slice(symbol[0].length)}`);
    }
    expect(text).not.toContain('$ref');
    expect(markdown).not.toContain('$ref');
  });
});
