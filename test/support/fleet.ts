/**
 * A "fleet" manifest for end-to-end tests at scale: N campaigns of M line items, each with keyword
 * targeting and promoted posts, all named from one prefix; and the check that the emulator holds
 * exactly what it describes — one live object per managed address, nothing more, each bound in
 * the state to that object.
 */
import { SEED_POST_IDS } from '../../src/emulator/store/seed.js';
import type { TestClient } from './client.js';
import { countBy, readLiveAccount } from './e2e.js';

export interface Fleet {
  /** Starts every campaign and line item name. */
  prefix: string;
  campaigns: number;
  lineItems: number;
  keywords: number;
  posts: number;
  /** Daily budget of campaign `c`, in currency units. */
  dailyBudget?: (c: number) => string;
  /** Line items left out of the manifest, as `c<i>.l<j>` keys (e.g. `c0.l1`). */
  omit?: readonly string[];
}

export interface FleetLineItem {
  key: string;
  name: string;
  keywords: string[];
  posts: string[];
}

export interface FleetCampaign {
  key: string;
  name: string;
  daily: string;
  lineItems: FleetLineItem[];
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The campaigns and line items a fleet manages, in manifest order. */
export function fleetCampaigns(fleet: Fleet): FleetCampaign[] {
  const out: FleetCampaign[] = [];
  for (let c = 0; c < fleet.campaigns; c++) {
    const key = `c${pad(c)}`;
    const lineItems: FleetLineItem[] = [];
    for (let l = 0; l < fleet.lineItems; l++) {
      if (fleet.omit?.includes(`${key}.l${l}`) === true) continue;
      const first = ((c * fleet.lineItems + l) * fleet.posts) % SEED_POST_IDS.length;
      lineItems.push({
        key: `l${l}`,
        name: `${fleet.prefix} ${key} line item ${l}`,
        keywords: Array.from({ length: fleet.keywords }, (_, k) => `${fleet.prefix.toLowerCase()} ${c} ${l} ${k}`),
        posts: Array.from({ length: fleet.posts }, (_, p) => SEED_POST_IDS[(first + p) % SEED_POST_IDS.length]!),
      });
    }
    out.push({ key, name: `${fleet.prefix} campaign ${pad(c)}`, daily: fleet.dailyBudget?.(c) ?? '10.00', lineItems });
  }
  return out;
}

/** The manifest text of a fleet in the seeded account. */
export function fleetManifest(endpoint: string, account: string, fundingInstrument: string, fleet: Fleet): string {
  const lines = ['version: 1', `endpoint: ${endpoint}`, 'account:', `  id: ${account}`, 'funding_instruments:', `  main: { id: ${fundingInstrument} }`, 'campaigns:'];
  for (const c of fleetCampaigns(fleet)) {
    lines.push(`  ${c.key}:`, `    name: ${c.name}`, '    funding_instrument: main', `    daily_budget: "${c.daily}"`, '    entity_status: PAUSED', '    line_items:');
    for (const l of c.lineItems) {
      lines.push(
        `      ${l.key}:`,
        `        name: ${l.name}`,
        '        product_type: PROMOTED_TWEETS',
        '        objective: ENGAGEMENTS',
        '        placements: [ALL_ON_SERVICE]',
        '        bid_strategy: AUTO',
        '        start_time: 2027-06-01T00:00:00Z',
        '        targeting:',
        ...l.keywords.map((k) => `          - { targeting_type: BROAD_KEYWORD, targeting_value: ${k} }`),
        `        promoted_posts: [${l.posts.map((p) => `"${p}"`).join(', ')}]`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Addresses of a fleet's campaigns, line items, targeting and promoted posts. */
export function fleetAddresses(fleet: Fleet): string[] {
  const out: string[] = [];
  for (const c of fleetCampaigns(fleet)) {
    out.push(`campaigns.${c.key}`);
    for (const l of c.lineItems) {
      const base = `campaigns.${c.key}.line_items.${l.key}`;
      out.push(base, ...l.keywords.map((k) => `${base}.targeting["BROAD_KEYWORD:${k}"]`), ...l.posts.map((p) => `${base}.promoted_posts["${p}"]`));
    }
  }
  return out;
}

const live = (r: Record<string, any>): boolean => r['deleted'] !== true;

/**
 * Everything wrong with the emulator account against the fleet and the state bindings (`address →
 * id`): a managed object missing or there twice, an object of the fleet's prefix that the fleet
 * does not describe, a binding to another object than the live one. Empty when they agree.
 */
export async function fleetProblems(client: TestClient, account: string, fleet: Fleet, bound: ReadonlyMap<string, string>): Promise<string[]> {
  const problems: string[] = [];
  const held = await readLiveAccount(client, account);
  const campaigns = held.campaigns.filter((c) => live(c) && String(c['name']).startsWith(fleet.prefix));
  const lineItems = held.lineItems.filter((l) => live(l) && String(l['name']).startsWith(fleet.prefix));
  const expected = fleetCampaigns(fleet);

  const expectOne = (what: string, address: string, found: Array<Record<string, any>>): Record<string, any> | undefined => {
    if (found.length !== 1) problems.push(`${what} (${address}): ${found.length} live objects, expected 1`);
    const only = found.length === 1 ? found[0] : undefined;
    if (only !== undefined && bound.get(address) !== String(only['id'])) problems.push(`${address} is bound to ${bound.get(address) ?? 'nothing'}, the live object is ${String(only['id'])}`);
    return only;
  };
  const names = new Set(expected.map((c) => c.name));
  for (const c of campaigns) if (!names.has(String(c['name']))) problems.push(`unexpected live campaign ${String(c['name'])} (${String(c['id'])})`);
  const lineNames = new Set(expected.flatMap((c) => c.lineItems.map((l) => l.name)));
  for (const l of lineItems) if (!lineNames.has(String(l['name']))) problems.push(`unexpected live line item ${String(l['name'])} (${String(l['id'])})`);

  for (const c of expected) {
    const address = `campaigns.${c.key}`;
    const campaign = expectOne(`campaign ${c.name}`, address, campaigns.filter((r) => r['name'] === c.name));
    if (campaign === undefined) continue;
    for (const l of c.lineItems) {
      const lineAddress = `${address}.line_items.${l.key}`;
      const lineItem = expectOne(`line item ${l.name}`, lineAddress, lineItems.filter((r) => r['name'] === l.name && r['campaign_id'] === campaign['id']));
      if (lineItem === undefined) continue;
      const posts = held.promotedPosts.filter((p) => live(p) && p['line_item_id'] === lineItem['id']);
      for (const p of l.posts) expectOne(`promoted post ${p} of ${l.name}`, `${lineAddress}.promoted_posts["${p}"]`, posts.filter((r) => r['tweet_id'] === p));
      const extraPosts = [...countBy(posts, (p) => String(p['tweet_id'])).keys()].filter((p) => !l.posts.includes(p));
      if (extraPosts.length > 0) problems.push(`${lineAddress} promotes unexpected posts ${extraPosts.join(', ')}`);
      const criteria = held.targeting.filter((t) => live(t) && t['line_item_id'] === lineItem['id']);
      for (const k of l.keywords) expectOne(`keyword ${k} of ${l.name}`, `${lineAddress}.targeting["BROAD_KEYWORD:${k}"]`, criteria.filter((r) => r['targeting_type'] === 'BROAD_KEYWORD' && r['targeting_value'] === k));
      const extraCriteria = criteria.filter((t) => !(t['targeting_type'] === 'BROAD_KEYWORD' && l.keywords.includes(String(t['targeting_value']))));
      if (extraCriteria.length > 0) problems.push(`${lineAddress} has unexpected targeting ${extraCriteria.map((t) => `${String(t['targeting_type'])}:${String(t['targeting_value'])}`).join(', ')}`);
    }
  }
  return problems;
}
