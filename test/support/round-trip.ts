/**
 * The round trip of `adsctl generate`, its shared parts (engine-round-trip.ts runs it in-process,
 * for test/engine/generate-roundtrip.test.ts and generate-golden-roundtrip.test.ts): an emulator
 * behind a wire log and the built CLI run against it (test/e2e/generate-roundtrip.test.ts),
 * scratch directories, the bindings of a workspace's state, and the check that what generate
 * wrote of an object a manifest made holds no field that manifest left to the service but the
 * serving status, which generate writes always.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { startTestEmulator, type TestClient } from './client.js';
import { emulatorEnv, transcript } from './e2e.js';
import { runCli } from './run-cli.js';
import { startWireLog, type WireLog } from './wire-log.js';

/**
 * Lists generate reads whole that a refresh skips when nothing is bound: the do-not-reach list,
 * media library, audiences, media creatives, curated categories, image and video conversation
 * cards, posts, drafts and scheduled posts.
 */
export const EMPTY_KIND_PROBES = 10;

/** An emulator, a client of its seeded owner, and the wire log adsctl talks through. */
export interface Emulated {
  emulator: RunningEmulator;
  client: TestClient;
  log: WireLog;
}

/** Starts an emulator and a wire log in front of it. */
export async function emulated(): Promise<Emulated> {
  const { emulator, client } = await startTestEmulator();
  return { emulator, client, log: await startWireLog(emulator.info.base_url) };
}

const dirs: string[] = [];

/** Closes the wire log and the emulator. */
export async function closeEmulated(at: Emulated): Promise<void> {
  await at.log.close();
  await at.emulator.close();
}

/** `adsctl ...args` in `cwd` against emulator `at` (through its wire log), expecting exit `code`. */
export const adsctl = async (at: Emulated, cwd: string, args: string[], code: number, extra: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string }> => {
  const run = await runCli(args, { env: { ...emulatorEnv(at.emulator.info), ...extra, ADSCTL_ENDPOINT: at.log.url, XDG_CONFIG_HOME: join(cwd, '.config') }, cwd });
  expect(run.code, `adsctl ${args.join(' ')} (in ${cwd})\n${transcript(run)}`).toBe(code);
  return run;
};
/** A new temporary directory, removed by `removeScratch`. */
export const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-generate-'));
  dirs.push(dir);
  return dir;
};

/** What a round trip generated: the manifest's text and parsed document, and the addresses each live id is bound to. */
export interface Generated {
  text: string;
  doc: YamlMap;
  addressesOf: Map<string, string[]>;
}

export type YamlMap = Record<string, unknown>;
/** `v` when it is a map, else an empty one. */
export const asMap = (v: unknown): YamlMap => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as YamlMap) : {});

/** The state entries of a workspace's accounts, address → id. */
export function bindingsOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const stateDir = join(dir, '.adsctl', 'state');
  for (const f of readdirSync(stateDir).filter((n) => n.endsWith('.json'))) {
    const state = JSON.parse(readFileSync(join(stateDir, f), 'utf8')) as { resources: Record<string, { id: string }> };
    for (const [address, entry] of Object.entries(state.resources)) out.set(address, entry.id);
  }
  return out;
}

/** The accounts the state of workspace `work` binds. */
export const accountsOf = (work: string): string[] => [...bindingsOf(work)].filter(([address]) => address === 'account').map(([, id]) => id);

/** The field generate writes on every object that serves, whether or not the manifest wrote it. */
const SERVING_STATUS = 'entity_status';

/** Sections written as references to live objects (by id), or not compared with what a manifest wrote. */
const BY_REFERENCE: ReadonlySet<string> = new Set(['account', 'features', 'funding_instruments', 'media']);

/** The map at a dotted address of a manifest document (`campaigns.a.line_items.b`); undefined where there is none. */
function mapAt(doc: YamlMap, address: string): YamlMap | undefined {
  let node: unknown = doc;
  for (const step of address.split('.')) node = asMap(node)[step];
  return node === undefined || node === null || typeof node !== 'object' || Array.isArray(node) ? undefined : (node as YamlMap);
}

/** The manifests of a directory, merged into one map (YAML merge keys followed). */
export function manifestsOf(dir: string): YamlMap {
  const out: YamlMap = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort()) {
    for (const [k, v] of Object.entries(asMap(parse(readFileSync(join(dir, f), 'utf8'), { merge: true })))) out[k] = typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...asMap(out[k]), ...asMap(v) } : v;
  }
  return out;
}

/**
 * Asserts that what generate wrote of each object the manifests of `work` made (matched by live
 * id through both states; list items and objects named by id aside) holds no field those
 * manifests left out, a value the service gave it: money written in micros counts as written.
 */
export function expectNothingBeyond(work: string, generated: readonly Generated[]): void {
  const written = manifestsOf(work);
  const extra: string[] = [];
  let matched = 0;
  for (const [address, id] of bindingsOf(work)) {
    if (address.includes('[') || BY_REFERENCE.has(address.split('.')[0] ?? '')) continue;
    const mine = mapAt(written, address);
    // the generated address of the same id and the same shape (an audience and its members share the id)
    const shape = (a: string): string => `${a.split('.').length}:${a.split('.').filter((_, i) => i % 2 === 0).join('.')}`;
    for (const g of generated) {
      const theirs = g.addressesOf.get(id)?.find((a) => shape(a) === shape(address));
      const object = theirs === undefined ? undefined : mapAt(g.doc, theirs);
      if (mine === undefined || object === undefined) continue;
      matched += 1;
      const has = new Set(Object.keys(mine).flatMap((k) => [k, k.replace(/(_amount)?_local_micro$/, '')]));
      // the serving status is written on every campaign and line item (docs/manifest.md, "Status is always watched")
      for (const [field, value] of Object.entries(object)) if (!has.has(field) && field !== SERVING_STATUS) extra.push(`${address} (${theirs ?? ''}).${field} = ${JSON.stringify(value)}`);
    }
  }
  expect(extra, `fields the manifests of ${work} left to the service, written by generate:\n${generated.map((g) => g.text).join('\n')}`).toEqual([]);
  if (written['campaigns'] !== undefined) expect(matched, 'objects of the manifest found in what generate wrote').toBeGreaterThan(0);
}

/** Removes every directory `scratch` made. */
export function removeScratch(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Lets `account` share audiences with accounts outside its business (a sandbox feature). */
export async function shareOutsideBusiness(client: TestClient, account: string): Promise<void> {
  const r = await client.post(`/12/accounts/${account}/features`, { feature_keys: 'SHARE_AUDIENCE_OUTSIDE_BUSINESS' }, { base: 'sandbox' });
  expect(r.status, r.text).toBe(200);
}
