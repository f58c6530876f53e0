/**
 * Emulator capacity: loads 100,000 campaigns and line items through the batch endpoints into a
 * real `adsctl emulator` process, reports its resident memory, then measures how many simple
 * signed GETs per second it serves. The emulator is single-threaded, so the rate is one core's.
 */
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { authorizationHeader, type Credentials } from '../test/support/signer.js';
import { spawnEmulator } from '../test/support/cli.js';

const CAMPAIGNS = 20_000;
const LINE_ITEMS_PER_CAMPAIGN = 4;
const GETS = 20_000;
const IN_FLIGHT = 32;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 'NaN');
  return kb / 1024;
}

async function pooled<T>(n: number, inFlight: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await task(i);
      }
    }),
  );
  return out;
}

export interface EmulatorBenchResult {
  entities: number;
  loadSeconds: number;
  rssMb: number;
  getsPerSecond: number;
}

export async function benchEmulator(): Promise<EmulatorBenchResult> {
  const emu = await spawnEmulator(['--rate-limit-scale', '0']);
  const { info } = emu;
  const creds: Credentials = { consumerKey: info.consumer_key, consumerSecret: info.consumer_secret, token: info.access_token, tokenSecret: info.access_token_secret };
  const origin = new URL(info.base_url);
  const pool = new Pool(origin.origin, { connections: 16 });
  const prefix = new URL(info.ads_base_url).pathname;

  async function call(method: 'GET' | 'POST', path: string, json?: unknown): Promise<any> {
    const url = `${info.ads_base_url}${path}`;
    const headers: Record<string, string> = { authorization: authorizationHeader(creds, { method, url }) };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await pool.request({ method, path: `${prefix}${path}`, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
    const body = (await res.body.json()) as any;
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(body).slice(0, 400)}`);
    return body;
  }

  const account = info.account_id;
  const started = Date.now();
  const campaignBatches = await pooled(CAMPAIGNS / 40, 8, (b) =>
    call(
      'POST',
      `/12/batch/accounts/${account}/campaigns`,
      Array.from({ length: 40 }, (_, i) => ({
        operation_type: 'Create',
        params: { funding_instrument_id: info.funding_instrument_id, name: `bench ${b * 40 + i}`, entity_status: 'PAUSED', daily_budget_amount_local_micro: 10_000_000 },
      })),
    ),
  );
  const campaignIds = campaignBatches.flatMap((r) => (r.data as Array<{ id: string }>).map((c) => c.id));
  const lineItemOps = campaignIds.flatMap((id) =>
    Array.from({ length: LINE_ITEMS_PER_CAMPAIGN }, (_, k) => ({
      operation_type: 'Create',
      params: {
        campaign_id: id,
        name: `li ${k}`,
        product_type: 'PROMOTED_TWEETS',
        objective: 'ENGAGEMENTS',
        placements: ['ALL_ON_SERVICE'],
        bid_strategy: 'AUTO',
        entity_status: 'PAUSED',
        start_time: '2026-12-01T00:00:00Z',
      },
    })),
  );
  await pooled(lineItemOps.length / 40, 8, (b) => call('POST', `/12/batch/accounts/${account}/line_items`, lineItemOps.slice(b * 40, b * 40 + 40)));
  const loadSeconds = (Date.now() - started) / 1000;
  const rss = rssMb(emu.child.pid!);

  const getStart = process.hrtime.bigint();
  await pooled(GETS, IN_FLIGHT, (i) => call('GET', `/12/accounts/${account}/campaigns/${campaignIds[i % campaignIds.length]!}`));
  const seconds = Number(process.hrtime.bigint() - getStart) / 1e9;

  await pool.close();
  emu.child.kill('SIGTERM');
  await emu.exited;
  return { entities: campaignIds.length * (1 + LINE_ITEMS_PER_CAMPAIGN), loadSeconds, rssMb: rss, getsPerSecond: GETS / seconds };
}
