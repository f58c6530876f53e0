/**
 * Control characters in a manifest's values (src/manifest/control-characters.ts): refused in
 * every name and every other string value — tab included — at the character itself when the
 * value is written on one line (an escape as a whole), else at the value; a post's text (a field
 * of lines) keeps its line breaks and tabs and refuses the rest. Keys and `x-` sections are not
 * read; a value an alias brings in is, at its anchor. The snippet shows a control character as
 * its picture, never as it is.
 */
import { describe, expect, it } from 'vitest';
import { formatDiagnostics } from '../../src/diag/format.js';
import { formatPosition } from '../../src/diag/source-range.js';
import { loadManifestSources } from '../../src/manifest/load.js';

const HEAD = 'version: 1\nendpoint: sandbox\naccount:\n  id: "18ce54d4x5t"\nfunding_instruments:\n  main: { id: lygyi }\n';

/** The `line:col code` of each diagnostic of a manifest `HEAD + body`. */
function problems(body: string, env: Record<string, string> = {}): string[] {
  const loaded = loadManifestSources([{ file: 'account.yaml', text: HEAD + body }], { env, fileExists: () => true });
  return loaded.diagnostics.map((d) => `${d.range === undefined ? '' : formatPosition(d.range).replace('account.yaml:', '')} ${d.code}`);
}

const campaign = (name: string): string => `campaigns:\n  sale:\n    name: ${name}\n    funding_instrument: main\n    daily_budget: "5.00"\n`;
const post = (text: string): string => `posts:\n  launch: { text: ${text} }\n`;

describe('control characters', () => {
  it.each([
    { name: 'a NUL escaped in a campaign name', body: campaign('"Sum\\0mer"'), at: '\\0' },
    { name: 'a bell as a hex escape', body: campaign('"Sum\\x07mer"'), at: '\\x07' },
    { name: 'an escape as a unicode escape, after a character beyond the BMP', body: campaign('"\\U0001F600 \\u001b[31m"'), at: '\\u001b' },
    { name: 'a tab in a name', body: campaign('"Summer\\tSale"'), at: '\\t' },
    { name: 'a line break in a name', body: campaign('"Summer\\nSale"'), at: '\\n' },
    { name: 'a raw control character in a plain name', body: campaign('Sum\u0001mer'), at: '\u0001' },
    { name: 'DEL in a single-quoted name, after a doubled quote', body: campaign("'O''Br\u007fien'"), at: '\u007f' },
    { name: 'the account name', body: '', head: 'version: 1\nendpoint: sandbox\naccount:\n  id: "18ce54d4x5t"\n  name: "Acme\\0"\n', at: '\\0' },
    { name: 'a line item name', body: `${campaign('Sale')}    line_items:\n      us: { name: "U\\x1bS", product_type: PROMOTED_TWEETS, objective: ENGAGEMENTS, placements: [ALL_ON_SERVICE], bid_amount: "1.00", start_time: 2027-01-01T00:00:00Z }\n`, at: '\\x1b' },
    { name: 'a keyword in a list of criteria', body: `${campaign('Sale')}    line_items:\n      us:\n        name: US\n        product_type: PROMOTED_TWEETS\n        objective: ENGAGEMENTS\n        placements: [ALL_ON_SERVICE]\n        bid_amount: "1.00"\n        start_time: 2027-01-01T00:00:00Z\n        targeting:\n          - { targeting_type: BROAD_KEYWORD, targeting_value: "tents\\0" }\n`, at: '\\0' },
    { name: 'a description over several lines, at the value', body: 'custom_audiences:\n  news:\n    name: News\n    description: "first\n      \\0 second"\n', at: '"first' },
    { name: 'a value from the environment, at the value', body: campaign('"${env:NAME}"'), env: { NAME: 'Sum\u0000mer' }, at: '"${env:NAME}"' },
    { name: 'a value an alias brings in from an x- section, at its anchor', body: `x-names: { sale: &sale "Sale\\0" }\n${campaign('*sale')}`, at: '\\0' },
    { name: 'a NUL in a post text', body: post('"Hello\\0"'), at: '\\0' },
    { name: 'an escape in a post text written as a block, at the value', body: 'posts:\n  launch:\n    text: |\n      Hello\n      \u001b[2J\n', at: '|' },
  ])('refuses $name at its position', ({ body, head, env, at }) => {
    const text = head ?? HEAD + body;
    const offset = text.indexOf(at);
    const before = text.slice(0, offset).split('\n');
    const loaded = loadManifestSources([{ file: 'account.yaml', text }], { env: env ?? {}, fileExists: () => true });
    expect(loaded.diagnostics.map((d) => `${formatPosition(d.range!).replace('account.yaml:', '')} ${d.code}`)).toEqual([`${before.length}:${before.at(-1)!.length + 1} control-character`]);
  });

  it.each([
    { name: 'line breaks and tabs in a post text', body: post('"Hello,\\n\\tworld"') },
    { name: 'a post text written as a block', body: 'posts:\n  launch:\n    text: |\n      Hello,\n      \tworld\n' },
    { name: 'names with quotes, accents and other scripts', body: campaign('"Été \\"50%\\" 日本 😀"') },
    { name: 'a control character in an x- section no alias uses', body: `x-notes: "draft\\0"\n${campaign('Sale')}` },
    { name: 'a control character in a logical name (a key, never sent)', body: campaign('Sale').replace('  sale:', '  "sa\\0le":') },
  ])('accepts $name', ({ body }) => {
    expect(problems(body)).toEqual([]);
  });

  it('names the character and shows it in the snippet as its picture, never as it is', () => {
    const text = HEAD + campaign('Sum\u001b[2Jmer');
    const loaded = loadManifestSources([{ file: 'account.yaml', text }], { fileExists: () => true });
    expect(loaded.diagnostics.map((d) => d.message)).toEqual(['name "Sum\\u001b[2Jmer" holds the control character U+001B (character 4): the service takes no control characters (U+0000 to U+001F, U+007F) in name; remove it']);
    const printed = formatDiagnostics(loaded.diagnostics, loaded.sources);
    expect(printed).not.toContain('\u001b');
    expect(printed).toContain('  9 |     name: Sum\u241b[2Jmer\n    |              ^');
  });

  it('says what a post text may hold', () => {
    const loaded = loadManifestSources([{ file: 'account.yaml', text: HEAD + post('"Hi\\x07"') }], { fileExists: () => true });
    expect(loaded.diagnostics.map((d) => d.message)).toEqual(['text "Hi\\u0007" holds the control character U+0007 (character 3): the service takes no control characters (U+0000 to U+001F, U+007F) but line breaks (LF) and tabs in text; remove it']);
  });
});
