/**
 * `generate --merge` as text (src/generate/merge.ts): the objects no manifest binds yet are added
 * where they belong — a campaign at the end of `campaigns:`, a line item at the end of its
 * campaign's `line_items:` (added when the campaign has none), a collection the file lacks at the
 * end of its parent — with their children, and every line of the file kept byte for byte, in
 * order; a collection written on one line is refused at its line.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { GeneratedBinding, GeneratedManifest } from '../../src/generate/generate.js';
import { mergeManifest } from '../../src/generate/merge.js';

/** A binding at `path` (`campaigns.a.line_items.b`). */
function binding(kind: GeneratedBinding['kind'], path: string, id: string): GeneratedBinding {
  const parts = path.split('.');
  const steps = [];
  for (let i = 0; i < parts.length; i += 2) steps.push({ collection: parts[i]!, key: parts[i + 1]! });
  return { address: path, steps, kind, id };
}

/** What generate writes for the live account, under the keys the file gives what it binds. */
const GENERATED: GeneratedManifest = {
  accountId: '18ce54d4x5t',
  fileName: '18ce54d4x5t.yaml',
  warnings: [],
  text: `version: 1
endpoint: local
account:
  id: 18ce54d4x5t
funding_instruments:
  main: { type: CREDIT_CARD }
campaigns:
  launch:
    name: Launch
    funding_instrument: main
    line_items:
      us:
        name: US
      by_hand:
        name: By hand
        targeting:
          - { targeting_type: LOCATION, targeting_value: 96683cc9126741d1 }
  flash_sale:
    name: Flash sale
    funding_instrument: main
    entity_status: ACTIVE
    line_items:
      flash_us:
        name: Flash US
`,
  bindings: [
    binding('account', '', '18ce54d4x5t'),
    binding('funding_instrument', 'funding_instruments.main', 'fi1'),
    binding('campaign', 'campaigns.launch', 'c1'),
    binding('line_item', 'campaigns.launch.line_items.us', 'l1'),
    binding('line_item', 'campaigns.launch.line_items.by_hand', 'l2'),
    binding('campaign', 'campaigns.flash_sale', 'c2'),
    binding('line_item', 'campaigns.flash_sale.line_items.flash_us', 'l3'),
  ].map((b) => (b.kind === 'account' ? { ...b, steps: [] } : b)),
};

const BOUND = new Set(['funding_instrument:fi1', 'campaign:c1', 'line_item:l1']);

/** Whether every line of `before` is in `after`, in order (nothing of the file changed or moved). */
function keptInOrder(before: string, after: string): boolean {
  const lines = after.split('\n');
  let at = 0;
  for (const line of before.split('\n')) {
    const found = lines.indexOf(line, at);
    if (found < 0) return false;
    at = found + 1;
  }
  return true;
}

const FILE = `# the team's account
version: 1
endpoint: local
account:
  id: 18ce54d4x5t   # pinned
funding_instruments:
  main: { type: CREDIT_CARD }
moved:
  - { from: campaigns.start, to: campaigns.launch }
campaigns:
  # our launch campaign
  launch:
    name: Launch
    funding_instrument: main
    line_items:
      us:
        name: US   # the first market
# end of the campaigns
`;

describe('mergeManifest', () => {
  it('adds a campaign and a line item made by hand, keeping every line of the file', () => {
    const merged = mergeManifest(FILE, GENERATED, BOUND);
    if ('error' in merged) throw new Error(merged.error);
    expect(keptInOrder(FILE, merged.text)).toBe(true);
    expect(merged.added.map((b) => b.address)).toEqual(['campaigns.launch.line_items.by_hand', 'campaigns.flash_sale', 'campaigns.flash_sale.line_items.flash_us']);
    expect(merged.notAdded).toEqual([]);
    const value = parse(merged.text) as { campaigns: Record<string, { line_items: Record<string, unknown> }> };
    expect(Object.keys(value.campaigns)).toEqual(['launch', 'flash_sale']);
    expect(Object.keys(value.campaigns['launch']!.line_items)).toEqual(['us', 'by_hand']);
    expect(value.campaigns['launch']!.line_items['by_hand']).toEqual({ name: 'By hand', targeting: [{ targeting_type: 'LOCATION', targeting_value: '96683cc9126741d1' }] });
    expect(value.campaigns['flash_sale']).toEqual({ name: 'Flash sale', funding_instrument: 'main', entity_status: 'ACTIVE', line_items: { flash_us: { name: 'Flash US' } } });
    // the comment after the campaigns stays after them
    expect(merged.text.trimEnd().endsWith('# end of the campaigns')).toBe(true);
  });

  it.each([
    {
      name: 'a campaign with no line_items yet gets them',
      file: 'version: 1\naccount:\n  id: 18ce54d4x5t\ncampaigns:\n  launch:\n    name: Launch\n',
      bound: new Set(['campaign:c1', 'funding_instrument:fi1', 'campaign:c2', 'line_item:l3']),
      want: { launch: { name: 'Launch', line_items: { us: { name: 'US' }, by_hand: { name: 'By hand', targeting: [{ targeting_type: 'LOCATION', targeting_value: '96683cc9126741d1' }] } } } },
    },
    {
      name: 'a file with no campaigns gets the collection',
      file: 'version: 1\naccount:\n  id: 18ce54d4x5t\nfunding_instruments:\n  main: { type: CREDIT_CARD }\n',
      bound: new Set(['funding_instrument:fi1', 'campaign:c2', 'line_item:l3']),
      want: { launch: { name: 'Launch', funding_instrument: 'main', line_items: { us: { name: 'US' }, by_hand: { name: 'By hand', targeting: [{ targeting_type: 'LOCATION', targeting_value: '96683cc9126741d1' }] } } } },
    },
  ])('$name', ({ file, bound, want }) => {
    const merged = mergeManifest(file, GENERATED, bound);
    if ('error' in merged) throw new Error(merged.error);
    expect(keptInOrder(file, merged.text)).toBe(true);
    expect((parse(merged.text) as { campaigns: unknown }).campaigns).toEqual(want);
  });

  it('refuses a collection written on one line, at its line, adding nothing', () => {
    const file = 'version: 1\naccount:\n  id: 18ce54d4x5t\ncampaigns: { launch: { name: Launch } }\n';
    expect(mergeManifest(file, GENERATED, new Set(['campaign:c1', 'line_item:l1', 'line_item:l2', 'funding_instrument:fi1']))).toEqual({
      error: 'line 4: campaigns is a one-line mapping, which generate --merge does not add to; write it as a block mapping (one key a line), then run generate --merge again',
    });
  });

  it('adds nothing when everything is bound', () => {
    const merged = mergeManifest(FILE, GENERATED, new Set(['funding_instrument:fi1', 'campaign:c1', 'line_item:l1', 'line_item:l2', 'campaign:c2', 'line_item:l3']));
    expect(merged).toEqual({ text: FILE, added: [], notAdded: [] });
  });
});
