/**
 * The plan's check of targeting values (src/plan/targeting-values.ts): which values of the
 * criteria a plan creates are looked up (lookup-backed types only, none a live criterion already
 * has), and which are refused — at the criterion's `targeting_value` in the manifest, with the
 * closest values the lookup lists. Lookups are the emulator's (test/support/targeting-options.ts).
 */
import { describe, expect, it } from 'vitest';
import { formatPosition } from '../../src/diag/source-range.js';
import type { ResourceChange } from '../../src/diff/types.js';
import type { Lookups } from '../../src/live/lookups.js';
import { formatAddress } from '../../src/manifest/address.js';
import { loadManifestSources } from '../../src/manifest/load.js';
import { checkTargetingValues, targetingValuesToLookUp } from '../../src/plan/targeting-values.js';
import { emulatorLookups } from '../golden/plan/harness.js';
import { EMULATOR_TARGETING_OPTIONS, emulatorTargetingValues } from '../support/targeting-options.js';
import { ACCOUNT_ID, change } from './builders.js';

const LINE_ITEM = 'campaigns.c.line_items.l';
const POSTAL_CODE = EMULATOR_TARGETING_OPTIONS.locations.find((o) => o.name === '94105, CA, US')!.value;

/** A criterion change on the line item: `after` for a create, `before` for what is live. */
function criterion(action: ResourceChange['action'], type: string, value: string, operator = 'EQ'): ResourceChange {
  const record = { line_item_id: 'li1', targeting_type: type, targeting_value: value, operator_type: operator };
  const key = operator === 'EQ' ? `${type}:${value}` : `${type}/${operator}:${value}`;
  return change(`${LINE_ITEM}.targeting[${JSON.stringify(key)}]`, action, {
    before: action === 'create' ? null : record,
    after: action === 'delete' ? null : record,
  });
}

/** The lookups a plan of `changes` reads: the emulator's options for the values it looks up. */
function lookupsFor(changes: readonly ResourceChange[]): Lookups {
  const targetingValues = emulatorTargetingValues(targetingValuesToLookUp(changes));
  return { ...emulatorLookups(ACCOUNT_ID), ...(targetingValues === undefined ? {} : { targetingValues }) };
}

const check = (changes: ResourceChange[]) => checkTargetingValues({ changes, desired: undefined, lookups: lookupsFor(changes) });

describe('targetingValuesToLookUp', () => {
  const rows: Array<{ name: string; changes: ResourceChange[]; wanted: Record<string, string[]> }> = [
    { name: 'a created location', changes: [criterion('create', 'LOCATION', '96683cc9126741d1')], wanted: { LOCATION: ['96683cc9126741d1'] } },
    { name: 'an excluded language (NE) too', changes: [criterion('create', 'LANGUAGE', 'fr', 'NE')], wanted: { LANGUAGE: ['fr'] } },
    { name: 'values sorted, each once', changes: [criterion('create', 'INTEREST', '2002'), criterion('create', 'INTEREST', '1001'), criterion('create', 'INTEREST', '2002', 'NE')], wanted: { INTEREST: ['1001', '2002'] } },
    { name: 'an existing criterion: known good', changes: [criterion('noop', 'LOCATION', '96683cc9126741d1')], wanted: {} },
    { name: 'a value a live criterion has (on another line item, or being deleted)', changes: [criterion('delete', 'LOCATION', 'aabd7522322d9682'), criterion('create', 'LOCATION', 'aabd7522322d9682', 'NE')], wanted: {} },
    { name: 'a replacement keeping its value', changes: [criterion('replace', 'DEVICE', '1q')], wanted: {} },
    { name: 'a keyword: no lookup', changes: [criterion('create', 'BROAD_KEYWORD', 'tents')], wanted: {} },
    { name: 'a custom audience: no lookup', changes: [criterion('create', 'CUSTOM_AUDIENCE', 'abc1')], wanted: {} },
    { name: 'a user to follow: no lookup', changes: [criterion('create', 'FOLLOWERS_OF_USER', '783214')], wanted: {} },
    { name: 'a line item is not a criterion', changes: [change(LINE_ITEM, 'create', { after: { targeting_type: 'LOCATION', targeting_value: 'x' } })], wanted: {} },
  ];
  it.each(rows)('$name', ({ changes, wanted }) => {
    expect(targetingValuesToLookUp(changes)).toEqual(wanted);
  });
});

describe('checkTargetingValues', () => {
  const rows: Array<{ name: string; changes: ResourceChange[]; messages: string[] }> = [
    { name: 'a country the lookup lists', changes: [criterion('create', 'LOCATION', '96683cc9126741d1')], messages: [] },
    { name: 'a postal code the lookup lists', changes: [criterion('create', 'LOCATION', POSTAL_CODE)], messages: [] },
    {
      name: 'a location no lookup lists: the nearest values it lists',
      changes: [criterion('create', 'LOCATION', 'ffffffffffffffff')],
      messages: ['LOCATION "ffffffffffffffff" is not a value the service knows: GET targeting_criteria/locations lists no such value; the closest it lists: "fdffffaf0558a644" (02179, MA, US), "ef9ff22eff967d95" (Bavaria, DE), "119526f1fff72f38" (10079, NY, US)'],
    },
    { name: 'a typo of a value', changes: [criterion('create', 'LOCATION', '96683cc9126741d2')], messages: ['LOCATION "96683cc9126741d2" is not a value the service knows: GET targeting_criteria/locations lists no such value; did you mean "96683cc9126741d1" (United States)?'] },
    { name: 'a name where the value belongs', changes: [criterion('create', 'LOCATION', 'united states')], messages: ['LOCATION "united states" is not a value the service knows: GET targeting_criteria/locations lists no such value; did you mean "96683cc9126741d1" (United States)?'] },
    { name: 'a language code in capitals', changes: [criterion('create', 'LANGUAGE', 'EN')], messages: ['LANGUAGE "EN" is not a value the service knows: GET targeting_criteria/languages lists no such value; did you mean "en" (English)?'] },
    { name: 'an excluded value is checked too', changes: [criterion('create', 'PLATFORM', '9', 'NE')], messages: ['PLATFORM "9" is not a value the service knows: GET targeting_criteria/platforms lists no such value; did you mean "0" (iOS)?'] },
    { name: 'one error per criterion, each with its message', changes: [criterion('create', 'DEVICE', 'zz'), criterion('create', 'DEVICE', 'zz', 'NE')], messages: ['DEVICE "zz" is not a value the service knows: GET targeting_criteria/devices lists no such value; the closest it lists: "1q" (iPhone 3GS), "1r" (iPhone 4), "2a" (iPhone 12)', 'DEVICE "zz" is not a value the service knows: GET targeting_criteria/devices lists no such value; the closest it lists: "1q" (iPhone 3GS), "1r" (iPhone 4), "2a" (iPhone 12)'] },
    { name: 'a value a live criterion has is not refused', changes: [criterion('noop', 'LOCATION', 'legacy00000000ff'), criterion('create', 'LOCATION', 'legacy00000000ff', 'NE')], messages: [] },
    { name: 'a criterion being deleted is not checked', changes: [criterion('delete', 'LOCATION', 'ffffffffffffffff')], messages: [] },
    { name: 'a keyword is not checked', changes: [criterion('create', 'EXACT_KEYWORD', 'ffffffffffffffff')], messages: [] },
  ];
  it.each(rows)('$name', ({ changes, messages }) => {
    const found = check(changes);
    expect(found.map((d) => d.message)).toEqual(messages);
    expect(found.every((d) => d.code === 'unknown-targeting-value' && d.severity === 'error')).toBe(true);
  });

  it('checks nothing the lookups were not read for', () => {
    const changes = [criterion('create', 'LOCATION', 'ffffffffffffffff')];
    expect(checkTargetingValues({ changes, desired: undefined, lookups: emulatorLookups(ACCOUNT_ID) })).toEqual([]);
  });

  it("points at the criterion's targeting_value in the manifest", () => {
    const text = [
      'version: 1',
      'account:',
      `  id: "${ACCOUNT_ID}"`,
      'campaigns:',
      '  c:',
      '    name: C',
      '    funding_instrument_id: lygyi',
      '    daily_budget: "5.00"',
      '    line_items:',
      '      l:',
      '        name: L',
      '        product_type: PROMOTED_TWEETS',
      '        objective: ENGAGEMENTS',
      '        placements: [ALL_ON_SERVICE]',
      '        start_time: 2026-12-01T00:00:00Z',
      '        targeting:',
      '          - { targeting_type: LOCATION, targeting_value: 96683cc9126741d1 }',
      '          - { targeting_type: LOCATION, targeting_value: ffffffffffffffff }',
      '',
    ].join('\n');
    const loaded = loadManifestSources([{ file: 'account.yaml', text }], { env: {} });
    const desired = loaded.value?.accounts[0];
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const changes = (desired?.resources ?? [])
      .filter((r) => r.kind === 'targeting_criterion')
      .map((r) => change(formatAddress(r.address), 'create', { after: { line_item_id: 'li1', ...r.attributes } }));
    expect(changes).toHaveLength(2);
    const [problem, ...rest] = checkTargetingValues({ changes, desired, lookups: lookupsFor(changes) });
    expect(rest).toEqual([]);
    expect(problem?.range === undefined ? undefined : formatPosition(problem.range)).toBe('account.yaml:18:58');
  });
});
