/**
 * Audience upload capacity: uploads a 1,000,000-member custom audience to a fresh `adsctl
 * emulator` process through `POST custom_audiences/:id/users`, in bodies just under the
 * 5,000,000-byte limit, one request at a time, then reports the emulator's resident memory
 * before and after and the upload requests served per second. The bodies are built before the
 * clock starts, so the rate is the emulator's (parse, validate, hash-set insert).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { authorizationHeader, type Credentials } from '../test/support/signer.js';
import { spawnEmulator } from '../test/support/cli.js';

const MEMBERS = 1_000_000;
/** User entries a request: `{"email":["<64 hex>"]},` is 78 bytes, so 63,000 stay under 5,000,000. */
const PER_REQUEST = 63_000;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 'NaN') / 1024;
}

export interface AudienceUploadBenchResult {
  members: number;
  /** Bytes of the audience's key array and index, as the emulator reports them. */
  memberMb: number;
  requests: number;
  largestBodyBytes: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  requestsPerSecond: number;
  uploadSeconds: number;
}

export async function benchAudienceUpload(): Promise<AudienceUploadBenchResult> {
  const emu = await spawnEmulator(['--rate-limit-scale', '0']);
  const { info } = emu;
  const creds: Credentials = { consumerKey: info.consumer_key, consumerSecret: info.consumer_secret, token: info.access_token, tokenSecret: info.access_token_secret };
  const pool = new Pool(new URL(info.base_url).origin, { connections: 1 });
  const prefix = new URL(info.ads_base_url).pathname;

  async function call(method: 'GET' | 'POST', path: string, query: string, body?: string): Promise<any> {
    const url = `${info.ads_base_url}${path}${query}`;
    const headers: Record<string, string> = { authorization: authorizationHeader(creds, { method, url }) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await pool.request({ method, path: `${prefix}${path}${query}`, headers, ...(body === undefined ? {} : { body }) });
    const parsed = (await res.body.json()) as any;
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(parsed).slice(0, 400)}`);
    return parsed;
  }

  const account = info.account_id;
  const audience = (await call('POST', `/12/accounts/${account}/custom_audiences`, '?name=bench')).data.id as string;
  const bodies: string[] = [];
  for (let start = 0; start < MEMBERS; start += PER_REQUEST) {
    const n = Math.min(PER_REQUEST, MEMBERS - start);
    const users = Array.from({ length: n }, (_, i) => ({ email: [createHash('sha256').update(`member:${start + i}`).digest('hex')] }));
    bodies.push(JSON.stringify([{ operation_type: 'Update', params: { users } }]));
  }
  const rssBeforeMb = rssMb(emu.child.pid!);

  const started = process.hrtime.bigint();
  for (const body of bodies) {
    const r = await call('POST', `/12/accounts/${account}/custom_audiences/${audience}/users`, '', body);
    if (r.data.success_count !== r.data.total_count) throw new Error(`counts differ: ${JSON.stringify(r.data)}`);
  }
  const uploadSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rssAfterMb = rssMb(emu.child.pid!);

  const counts = await fetch(`${info.base_url}/_emulator/audiences`).then((r) => r.json() as Promise<{ custom_audiences: Array<{ id: string; members: number; member_bytes: number }> }>);
  const entry = counts.custom_audiences.find((a) => a.id === audience);
  await pool.close();
  emu.child.kill('SIGTERM');
  await emu.exited;
  return {
    members: entry?.members ?? 0,
    memberMb: (entry?.member_bytes ?? 0) / 1024 / 1024,
    requests: bodies.length,
    largestBodyBytes: Math.max(...bodies.map((b) => Buffer.byteLength(b))),
    rssBeforeMb,
    rssAfterMb,
    requestsPerSecond: bodies.length / uploadSeconds,
    uploadSeconds,
  };
}
