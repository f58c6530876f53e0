/**
 * The manifest's `moved` and `removed` entries as the loader reads them (src/manifest/moves.ts):
 * each refusal with its code, position and message, one refusal per mistake, and the entries
 * accepted with their parsed addresses and ranges. What the entries do to a state is
 * test/plan/moves.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diag/diagnostic.js';
import { formatPosition } from '../../src/diag/source-range.js';
import { formatAddress } from '../../src/manifest/address.js';
import { loadManifestSources } from '../../src/manifest/load.js';

/** Sixteen lines declaring campaigns.kept and its line item us; the entries start on line 17. */
const HEAD = `version: 1
account: { id: a }
funding_instruments:
  main: { id: lygyi }
campaigns:
  kept:
    name: Kept
    funding_instrument: main
    line_items:
      us:
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_strategy: AUTO
        start_time: 2027-01-01T00:00:00Z
`;

const load = (entries: string): ReturnType<typeof loadManifestSources> => loadManifestSources([{ file: 'm.yaml', text: HEAD + entries }]);

/** A diagnostic as `file:line:col code: message`, with its notes after ` | `. */
const shown = (d: Diagnostic): string =>
  [`${d.range === undefined ? '-' : formatPosition(d.range)} ${d.code}: ${d.message}`, ...(d.related ?? []).map((r) => `${formatPosition(r.range)} ${r.message}`)].join(' | ');

const STILL_MOVED = "is still declared in the manifest; a moved entry's from must have left it (remove the entry once the move is applied and you want the address back)";
const STILL_REMOVED = 'is still declared in the manifest; remove it from the manifest to stop managing it, or drop this removed entry';

describe('refused entries', () => {
  const rows: Array<{ name: string; entries: string; diagnostics: string[] }> = [
    {
      name: 'a move to another kind',
      entries: 'moved:\n  - { from: campaigns.a, to: funding_instruments.b }\n',
      diagnostics: ['m.yaml:17:5 move-kind: campaigns.a is a campaign and funding_instruments.b a funding instrument; a move keeps the kind'],
    },
    {
      name: 'a move from a line item to a campaign',
      entries: 'moved:\n  - { from: campaigns.a.line_items.l, to: campaigns.b }\n',
      diagnostics: ['m.yaml:17:5 move-kind: campaigns.a.line_items.l is a line item and campaigns.b a campaign; a move keeps the kind'],
    },
    {
      name: 'a move onto itself',
      entries: 'moved:\n  - { from: campaigns.a, to: campaigns.a }\n',
      diagnostics: ['m.yaml:17:5 move-into-itself: campaigns.a cannot move to campaigns.a'],
    },
    {
      name: 'a move onto itself spelt with a quoted key',
      entries: `moved:\n  - { from: 'campaigns["a"]', to: campaigns.a }\n`,
      diagnostics: ['m.yaml:17:5 move-into-itself: campaigns.a cannot move to campaigns.a'],
    },
    {
      name: 'a move of a targeting criterion onto itself, its EQ operator written out',
      entries: `moved:\n  - from: 'campaigns.a.line_items.l.targeting["BROAD_KEYWORD:x"]'\n    to: 'campaigns.a.line_items.l.targeting["BROAD_KEYWORD/EQ:x"]'\n`,
      diagnostics: ['m.yaml:17:5 move-into-itself: campaigns.a.line_items.l.targeting["BROAD_KEYWORD:x"] cannot move to campaigns.a.line_items.l.targeting["BROAD_KEYWORD:x"]'],
    },
    {
      name: 'a move of the one do-not-reach list onto itself, in a flow list',
      entries: 'moved: [{ from: do_not_reach, to: do_not_reach }]\n',
      diagnostics: ['m.yaml:16:9 move-into-itself: do_not_reach cannot move to do_not_reach'],
    },
    {
      name: 'a move from a campaign still declared',
      entries: 'moved:\n  - { from: campaigns.kept, to: campaigns.b }\n',
      diagnostics: [`m.yaml:17:5 move-source-declared: campaigns.kept ${STILL_MOVED}`],
    },
    {
      name: 'a move from a line item still declared',
      entries: 'moved:\n  - { from: campaigns.kept.line_items.us, to: campaigns.b.line_items.us }\n',
      diagnostics: [`m.yaml:17:5 move-source-declared: campaigns.kept.line_items.us ${STILL_MOVED}`],
    },
    {
      name: 'two moves of one address, the second at its entry with the first as a note',
      entries: 'moved:\n  - { from: campaigns.a, to: campaigns.b }\n  - from: campaigns.a\n    to: campaigns.c\n',
      diagnostics: ['m.yaml:18:5 duplicate-move: campaigns.a is already moved by another entry | m.yaml:17:5 moved here'],
    },
    {
      name: 'three moves of one address: each later one points at the first',
      entries: 'moved:\n  - { from: campaigns.a, to: campaigns.b }\n  - { from: campaigns.a, to: campaigns.b }\n  - { from: campaigns.a, to: campaigns.c }\n',
      diagnostics: ['m.yaml:18:5 duplicate-move: campaigns.a is already moved by another entry | m.yaml:17:5 moved here', 'm.yaml:19:5 duplicate-move: campaigns.a is already moved by another entry | m.yaml:17:5 moved here'],
    },
    {
      name: 'two moves onto one address, the second at its entry with the first as a note',
      entries: 'moved:\n  - { from: campaigns.a, to: campaigns.c }\n  - from: campaigns.b\n    to: campaigns.c\n',
      diagnostics: ['m.yaml:18:5 duplicate-move-destination: campaigns.b cannot move to campaigns.c: another entry already moves campaigns.a there, and one address binds one object | m.yaml:17:5 moved there here'],
    },
    {
      name: 'two moves of line items onto one address, the key spelt two ways',
      entries: `moved:\n  - { from: campaigns.a.line_items.x, to: campaigns.c.line_items.y }\n  - { from: campaigns.b.line_items.x, to: 'campaigns.c.line_items["y"]' }\n`,
      diagnostics: ['m.yaml:18:5 duplicate-move-destination: campaigns.b.line_items.x cannot move to campaigns.c.line_items.y: another entry already moves campaigns.a.line_items.x there, and one address binds one object | m.yaml:17:5 moved there here'],
    },
    {
      name: 'a swap: a cycle of two moves, refused at its later entry',
      entries: 'moved:\n  - { from: campaigns.a, to: campaigns.b }\n  - { from: campaigns.b, to: campaigns.a }\n',
      diagnostics: [
        'm.yaml:18:5 move-cycle: campaigns.b cannot move to campaigns.a: the moves form a cycle (campaigns.a -> campaigns.b -> campaigns.a), which no order of renames makes; move through a free address in two applies | m.yaml:17:5 part of the cycle',
      ],
    },
    {
      name: 'a cycle of three moves written out of order, and a chain beside it accepted',
      entries: 'moved:\n  - { from: campaigns.c, to: campaigns.a }\n  - { from: campaigns.x, to: campaigns.y }\n  - { from: campaigns.a, to: campaigns.b }\n  - { from: campaigns.b, to: campaigns.c }\n',
      diagnostics: [
        'm.yaml:20:5 move-cycle: campaigns.b cannot move to campaigns.c: the moves form a cycle (campaigns.c -> campaigns.a -> campaigns.b -> campaigns.c), which no order of renames makes; move through a free address in two applies | m.yaml:17:5 part of the cycle | m.yaml:19:5 part of the cycle',
      ],
    },
    {
      name: 'a from that is no address, at the value',
      entries: 'moved:\n  - { from: campaign.a, to: campaigns.b }\n',
      diagnostics: ['m.yaml:17:13 address-syntax: invalid address "campaign.a": there is no collection "campaign" at the top level; did you mean "campaigns"?'],
    },
    {
      name: 'a to that is no address, at the value',
      entries: 'moved:\n  - { from: campaigns.a, to: campaigns.b.line_item.x }\n',
      diagnostics: ['m.yaml:17:30 address-syntax: invalid address "campaigns.b.line_item.x": there is no collection "line_item" under a campaign; did you mean "line_items"?'],
    },
    {
      name: 'a move without its to: the schema alone',
      entries: 'moved:\n  - { from: campaigns.a }\n',
      diagnostics: ['m.yaml:17:5 schema-required: moved entry 1 of moved is missing the required field "to"'],
    },
    {
      name: 'a from the schema refuses: reported once',
      entries: 'moved:\n  - { from: 5, to: campaigns.b }\n',
      diagnostics: ['m.yaml:17:13 schema-type: from must be a string, not 5'],
    },
    {
      name: 'a removal of a campaign still declared',
      entries: 'removed:\n  - { from: campaigns.kept }\n',
      diagnostics: [`m.yaml:17:5 removed-declared: campaigns.kept ${STILL_REMOVED}`],
    },
    {
      name: 'a removal of a line item still declared',
      entries: 'removed:\n  - { from: campaigns.kept.line_items.us }\n',
      diagnostics: [`m.yaml:17:5 removed-declared: campaigns.kept.line_items.us ${STILL_REMOVED}`],
    },
    {
      name: 'a removal of no address, at the value',
      entries: 'removed:\n  - { from: campaigns..x }\n',
      diagnostics: ['m.yaml:17:13 address-syntax: invalid address "campaigns..x": expected a key after "campaigns."'],
    },
    {
      name: 'every mistake of the file at once, in reading order',
      entries: 'moved:\n  - { from: campaigns.kept, to: campaigns.b }\n  - { from: campaigns.a, to: cards.a }\nremoved:\n  - { from: campaigns.kept.line_items.us }\n',
      diagnostics: [
        `m.yaml:17:5 move-source-declared: campaigns.kept ${STILL_MOVED}`,
        'm.yaml:18:5 move-kind: campaigns.a is a campaign and cards.a a card; a move keeps the kind',
        `m.yaml:20:5 removed-declared: campaigns.kept.line_items.us ${STILL_REMOVED}`,
      ],
    },
  ];

  it.each(rows)('$name', ({ entries, diagnostics }) => {
    const result = load(entries);
    expect(result.diagnostics.map(shown)).toEqual(diagnostics);
    expect(result.diagnostics.every((d) => d.severity === 'error')).toBe(true);
    expect(result.value).toBeUndefined();
  });
});

describe('accepted entries', () => {
  /** Each entry as `from -> to @ line:col-line:col`, or `from @ ...` for a removal. */
  const read = (entries: string): { moved?: string[]; removed?: string[] } => {
    const result = load(entries);
    expect(result.diagnostics.map(shown)).toEqual([]);
    const account = result.value?.accounts[0];
    const at = (r: { start: { line: number; column: number }; end: { line: number; column: number } }): string => `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}`;
    return {
      ...(account?.moved === undefined ? {} : { moved: account.moved.map((m) => `${m.to.kind} ${formatAddress(m.from)} -> ${formatAddress(m.to)} @ ${at(m.source)}`) }),
      ...(account?.removed === undefined ? {} : { removed: account.removed.map((r) => `${r.from.kind} ${formatAddress(r.from)} @ ${at(r.source)}`) }),
    };
  };

  const rows: Array<{ name: string; entries: string; expected: { moved?: string[]; removed?: string[] } }> = [
    { name: 'none: both fields absent', entries: '', expected: {} },
    { name: 'empty lists: both fields absent', entries: 'moved: []\nremoved: []\n', expected: {} },
    {
      name: 'a rename onto a declared campaign, in file order with a move of a line item to it',
      entries: 'moved:\n  - { from: campaigns.old, to: campaigns.kept }\n  - { from: campaigns.x.line_items.l, to: campaigns.kept.line_items.l }\n',
      expected: { moved: ['campaign campaigns.old -> campaigns.kept @ 17:5-17:48', 'line_item campaigns.x.line_items.l -> campaigns.kept.line_items.l @ 18:5-18:72'] },
    },
    {
      name: 'a from whose name only starts like a declared one',
      entries: 'moved:\n  - { from: campaigns.kep, to: campaigns.b }\nremoved:\n  - { from: campaigns.keptx }\n',
      expected: { moved: ['campaign campaigns.kep -> campaigns.b @ 17:5-17:45'], removed: ['campaign campaigns.keptx @ 19:5-19:30'] },
    },
    {
      name: 'a chain written backwards, kept in file order (the plan orders it)',
      entries: 'moved:\n  - { from: campaigns.b, to: campaigns.c }\n  - { from: campaigns.a, to: campaigns.b }\n',
      expected: { moved: ['campaign campaigns.b -> campaigns.c @ 17:5-17:43', 'campaign campaigns.a -> campaigns.b @ 18:5-18:43'] },
    },
    {
      name: 'a chain, kept in file order',
      entries: 'moved:\n  - { from: campaigns.a, to: campaigns.b }\n  - { from: campaigns.b, to: campaigns.c }\n',
      expected: { moved: ['campaign campaigns.a -> campaigns.b @ 17:5-17:43', 'campaign campaigns.b -> campaigns.c @ 18:5-18:43'] },
    },
    {
      name: 'a move of an audience, with its quoted key normalised, and a removal in block style',
      entries: `moved:\n  - { from: 'custom_audiences["fans"]', to: custom_audiences.friends }\nremoved:\n  - from: custom_audiences.gone\n`,
      expected: { moved: ['custom_audience custom_audiences.fans -> custom_audiences.friends @ 17:5-17:71'], removed: ['custom_audience custom_audiences.gone @ 19:5-20:1'] },
    },
    {
      name: 'removals of a campaign and of a targeting criterion',
      entries: `removed:\n  - { from: campaigns.old }\n  - { from: 'campaigns.kept.line_items.us.targeting["BROAD_KEYWORD/EQ:x"]' }\n`,
      expected: { removed: ['campaign campaigns.old @ 17:5-17:28', 'targeting_criterion campaigns.kept.line_items.us.targeting["BROAD_KEYWORD:x"] @ 18:5-18:77'] },
    },
  ];

  it.each(rows)('$name', ({ entries, expected }) => {
    expect(read(entries)).toEqual(expected);
  });
});
