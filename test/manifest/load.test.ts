import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatAddress } from '../../src/manifest/address.js';
import { loadManifests, loadManifestSources } from '../../src/manifest/load.js';
import type { DesiredResource } from '../../src/manifest/types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-load-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (path: string, text: string): void => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};

const byAddress = (resources: readonly DesiredResource[]): Map<string, DesiredResource> => new Map(resources.map((r) => [formatAddress(r.address), r]));

describe('loadManifests', () => {
  it('loads *.yaml and *.yml files of a directory tree in path order, skipping hidden directories and other files', () => {
    write('b.yaml', 'version: 1\naccount: { id: b }\n');
    write('a/z.yml', 'version: 1\naccount: { id: z }\n');
    write('a/nested/y.YAML', 'version: 1\naccount: { id: y }\n');
    write('.adsctl/state.yaml', 'not: a manifest\n');
    write('node_modules/x/x.yaml', 'not: a manifest\n');
    write('notes.txt', 'text');
    const result = loadManifests(dir);
    expect(result.diagnostics).toEqual([]);
    expect(result.files).toEqual([join(dir, 'a/nested/y.YAML'), join(dir, 'a/z.yml'), join(dir, 'b.yaml')]);
    expect(result.value?.accounts.map((a) => a.key)).toEqual(['y', 'z', 'b']);
  });

  it('loads a single file given by path, whatever its name', () => {
    write('account.manifest', 'version: 1\n');
    const result = loadManifests(join(dir, 'account.manifest'));
    expect(result.value?.accounts).toHaveLength(1);
    expect(result.value?.accounts[0]?.key).toBe(join(dir, 'account.manifest'));
  });

  it('reports a missing path and a directory without manifests', () => {
    expect(loadManifests(join(dir, 'nope')).diagnostics.map((d) => d.code)).toEqual(['path-not-found']);
    expect(loadManifests(dir).diagnostics.map((d) => d.code)).toEqual(['no-manifests']);
  });

  it('reports every problem of every file at once, in file order, and returns no state', () => {
    write('a.yaml', 'version: 1\ncampaigns:\n  x: { name: X, funding_instrument: nope }\n');
    write('b.yaml', 'version: 2\n');
    const result = loadManifests(dir);
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => `${d.range?.file.slice(dir.length + 1)}:${d.range?.start.line} ${d.code}`)).toEqual(['a.yaml:3 unknown-reference', 'b.yaml:1 schema-const']);
  });
});

describe('the desired state', () => {
  const manifest = `version: 1
endpoint: sandbox
account: { id: "18ce54d4x5t", name: Acme }
funding_instruments:
  main: { id: lygyi }
campaigns:
  summer_sale:
    name: Summer Sale
    funding_instrument: main
    daily_budget: "50.00"
    total_budget: 1500
    lifecycle: { prevent_destroy: true, ignore_changes: [daily_budget, name] }
    line_items:
      us:
        product_type: PROMOTED_TWEETS
        objective: ENGAGEMENTS
        placements: [ALL_ON_SERVICE]
        bid_amount_local_micro: 1500000
        start_time: 2026-06-01T09:00:00+02:00
        depends_on: [campaigns.winter]
        targeting:
          - { targeting_type: BROAD_KEYWORD, targeting_value: sunscreen, operator_type: NE }
        promoted_posts: [1346184843436720128]
  winter:
    name: Winter
    funding_instrument_id: raw_fi
import:
  - { to: campaigns.winter, id: hwtq0 }
`;
  const result = loadManifestSources([{ file: 'acme.yaml', text: manifest }]);
  const account = result.value?.accounts[0];
  const resources = byAddress(account?.resources ?? []);

  it('is made when there are no diagnostics', () => {
    expect(result.diagnostics).toEqual([]);
    expect(account).toMatchObject({ file: 'acme.yaml', key: '18ce54d4x5t', accountId: '18ce54d4x5t', endpoint: 'sandbox' });
  });

  it('lists resources in file order with parsed addresses and parents', () => {
    expect([...resources.keys()]).toEqual([
      'account',
      'funding_instruments.main',
      'campaigns.summer_sale',
      'campaigns.summer_sale.line_items.us',
      'campaigns.summer_sale.line_items.us.targeting["BROAD_KEYWORD/NE:sunscreen"]',
      'campaigns.summer_sale.line_items.us.promoted_posts["1346184843436720128"]',
      'campaigns.winter',
    ]);
    const post = resources.get('campaigns.summer_sale.line_items.us.promoted_posts["1346184843436720128"]');
    expect(post?.kind).toBe('promoted_post');
    expect(post?.parent && formatAddress(post.parent)).toBe('campaigns.summer_sale.line_items.us');
  });

  it('has attributes in API names, money in exact micros, times in UTC and ids digit for digit', () => {
    expect(resources.get('campaigns.summer_sale')?.attributes).toEqual({ name: 'Summer Sale', daily_budget_amount_local_micro: 50_000_000, total_budget_amount_local_micro: 1_500_000_000 });
    expect(resources.get('campaigns.summer_sale.line_items.us')?.attributes).toMatchObject({ bid_amount_local_micro: 1_500_000, start_time: '2026-06-01T07:00:00Z' });
    expect(resources.get('campaigns.summer_sale.line_items.us.promoted_posts["1346184843436720128"]')?.attributes).toEqual({ tweet_id: '1346184843436720128' });
    expect(resources.get('campaigns.winter')?.attributes).toEqual({ name: 'Winter', funding_instrument_id: 'raw_fi' });
  });

  it('has references as addresses, lifecycle, depends_on and import ids', () => {
    const campaign = resources.get('campaigns.summer_sale');
    expect(Object.fromEntries(Object.entries(campaign?.references ?? {}).map(([k, v]) => [k, formatAddress(v)]))).toEqual({ funding_instrument_id: 'funding_instruments.main' });
    expect(campaign?.lifecycle).toEqual({ preventDestroy: true, ignoreChanges: ['daily_budget_amount_local_micro', 'name'] });
    const lineItem = resources.get('campaigns.summer_sale.line_items.us');
    expect(lineItem?.dependsOn.map(formatAddress)).toEqual(['campaigns.winter']);
    expect(formatAddress(lineItem?.references['campaign_id'] ?? { kind: 'account', steps: [] })).toBe('campaigns.summer_sale');
    expect(resources.get('campaigns.winter')?.importId).toBe('hwtq0');
    expect(resources.get('funding_instruments.main')?.importId).toBe('lygyi');
    expect(resources.get('account')?.importId).toBe('18ce54d4x5t');
  });

  it('has the source range of every resource and attribute', () => {
    const campaign = resources.get('campaigns.summer_sale');
    expect(campaign?.source.start).toMatchObject({ line: 7, column: 3 });
    expect(campaign?.attributeSources['daily_budget_amount_local_micro']?.start).toMatchObject({ line: 10, column: 19 });
    expect(campaign?.attributeSources['funding_instrument_id']?.start).toMatchObject({ line: 9, column: 25 });
    expect(campaign?.attributeSources['lifecycle.prevent_destroy']?.start).toMatchObject({ line: 12, column: 35 });
    expect(resources.get('campaigns.summer_sale.line_items.us')?.attributeSources['depends_on[0]']?.start).toMatchObject({ line: 20, column: 22 });
    expect(resources.get('campaigns.winter')?.attributeSources['import']?.start).toMatchObject({ line: 28, column: 5 });
  });

  it('does not fill in API defaults beyond the identity of targeting criteria', () => {
    expect(resources.get('campaigns.winter')?.attributes['entity_status']).toBeUndefined();
    const criterion = [...resources.values()].find((r) => r.kind === 'targeting_criterion');
    expect(criterion?.attributes).toEqual({ targeting_type: 'BROAD_KEYWORD', targeting_value: 'sunscreen', operator_type: 'NE' });
    const eq = loadManifestSources([{ file: 'x.yaml', text: 'version: 1\ncampaigns:\n  c:\n    name: C\n    funding_instrument_id: f\n    line_items:\n      l:\n        product_type: MEDIA\n        objective: REACH\n        placements: [X]\n        targeting: [{ targeting_type: LANGUAGE, targeting_value: en }]\n' }]);
    expect(eq.value?.accounts[0]?.resources.at(-1)?.attributes['operator_type']).toBe('EQ');
  });

  it('keys an account without id by its file', () => {
    const two = loadManifestSources([
      { file: 'a.yaml', text: 'version: 1\n' },
      { file: 'b.yaml', text: 'version: 1\n' },
    ]);
    expect(two.value?.accounts.map((a) => a.key)).toEqual(['a.yaml', 'b.yaml']);
  });
});
