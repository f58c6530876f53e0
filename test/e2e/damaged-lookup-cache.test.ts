/**
 * Damaged files adsctl keeps are the user's to repair, told in one line, never a bug. A lookup
 * cache of valid JSON with the wrong shapes (bid limits as text, an empty list of bidding rules)
 * stood in for the service until it expired, up to 30 days, failing every plan without naming a
 * file: now the plan discards the damaged entries, reads them again, warns naming the cache file,
 * and plans as usual. A cache file or a state lock where a directory stands is one line naming it.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator } from '../support/client.js';
import { createWorkspace, seededAccountHead, transcript, type Workspace } from '../support/e2e.js';

let emulator: RunningEmulator;
let ws: Workspace;

const manifest = (n: number): string => `${seededAccountHead(emulator.info.base_url)}campaigns:
  cache_${n}: { name: "Cache ${n}", funding_instrument: main, daily_budget: "5.00", entity_status: PAUSED }
`;

beforeAll(async () => {
  ({ emulator } = await startTestEmulator());
  ws = createWorkspace(emulator.info, manifest(1));
});
afterAll(async () => {
  ws.remove();
  await emulator.close();
});

describe('a damaged lookup cache', () => {
  it('is discarded with a warning naming it, read again, and the plan goes on', async () => {
    const first = await ws.run(['plan']);
    expect(first.code, transcript(first)).toBe(0);
    const dir = join(ws.dir, '.adsctl', 'cache');
    const file = readdirSync(dir).find((f) => f.startsWith('lookups-'));
    expect(file).toBeDefined();
    const path = join(dir, file!);
    const cache = JSON.parse(readFileSync(path, 'utf8')) as Record<string, { fetched_at: number; data: Array<Record<string, unknown>> }>;
    cache['bidding_rules']!.data = cache['bidding_rules']!.data.map((r) => ({ ...r, minimum_cpe_bid_local_micro: String(r['minimum_cpe_bid_local_micro']) }));
    cache['placements']!.data = [];
    writeFileSync(path, JSON.stringify(cache));

    ws.write(manifest(2));
    const plan = await ws.run(['plan', '--no-color']);
    expect(plan.code, transcript(plan)).toBe(0);
    expect(plan.stdout + plan.stderr).toContain('lookup-cache-damaged');
    expect(plan.stdout + plan.stderr).toContain(file!.replace(/\.json$/, ''));
    expect(plan.stdout + plan.stderr).not.toContain('a bug in adsctl');
    const repaired = JSON.parse(readFileSync(path, 'utf8')) as Record<string, { data: Array<Record<string, unknown>> }>;
    expect(typeof repaired['bidding_rules']!.data[0]!['minimum_cpe_bid_local_micro']).toBe('number');
    expect(repaired['placements']!.data.length).toBeGreaterThan(0);
    const again = await ws.run(['plan', '--no-color']);
    expect(again.stdout + again.stderr).not.toContain('lookup-cache-damaged');
  });
});

describe('a lookup cache path that is a directory', () => {
  it('is one line naming it and what to do, not a bug', async () => {
    const dir = join(ws.dir, '.adsctl', 'cache');
    const file = readdirSync(dir).find((f) => f.startsWith('lookups-'))!;
    rmSync(join(dir, file));
    mkdirSync(join(dir, file, 'inside'), { recursive: true });
    ws.write(manifest(3));
    const plan = await ws.run(['plan', '--no-color']);
    expect(plan.code, transcript(plan)).toBe(1);
    const lines = plan.stderr.trim().split('\n');
    expect(lines.at(-1)).toBe(`Error: ${join(dir, file)} is a directory, where adsctl keeps a file: move it away and run the command again`);
    expect(plan.stderr).not.toContain('a bug in adsctl');
  });
});

describe('a state lock path that is a directory', () => {
  it('is one line naming it and what to do, not a bug', async () => {
    const lock = join(ws.dir, '.adsctl', 'state', '18ce54d4x5t.lock');
    mkdirSync(join(lock, 'inside'), { recursive: true });
    try {
      const plan = await ws.run(['plan', '--no-color']);
      expect(plan.code, transcript(plan)).toBe(1);
      expect(plan.stderr.trim()).toBe(`Error: ${lock} is a directory, where adsctl keeps the state lock: move it away and run the command again`);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  });
});
