/**
 * Member file reading (src/members/sets): a synthetic CSV of 1,000,000 identifiers (half emails, half
 * phone numbers in the spellings CRM exports use: E.164, grouped international, US national
 * with the default region, UK and French mobiles; about 0.5% invalid, 1% repeated, 2% quoted) is read with
 * `readMemberFile`, then packed into Update requests; then 1% of its lines change and the
 * delta's Update and Delete requests are packed. Reports identifiers read per second (target
 * >= 500,000), the peak resident memory of the reading process (target <= 512 MB), requests over
 * their minimum and the largest body. The files are written by this process, the reading runs in
 * a fresh one so its memory is its own.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, createWriteStream, fsyncSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../test/support/member-files.js';

const LINES = 1_000_000;

export interface AudienceHashBenchResult {
  lines: number;
  identifiers: number;
  valid: number;
  invalid: number;
  duplicates: number;
  members: number;
  readSeconds: number;
  readCpuSeconds: number;
  identifiersPerSecond: number;
  peakRssMb: number;
  requests: number;
  minimumRequests: number;
  largestBodyBytes: number;
  deltaAdded: number;
  deltaRemoved: number;
  deltaRequests: number;
  deltaMinimum: number;
}

const AREAS = ['201', '212', '305', '312', '415', '512', '617', '646', '713', '818'];
const DOMAINS = ['Example.com', 'mail.example.org', 'example.co.uk', 'Corp.Example.net'];

/** Line `i` of the file made with `seed`: one email or one phone number, sometimes invalid or quoted. */
function line(i: number, seed: number): string {
  const r = seededRandom(seed * 10_000_000 + i);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const digits = (n: number): string => String(Math.floor(r() * 10 ** n)).padStart(n, '0');
  const x = r();
  let cell: string;
  let column: 0 | 1;
  if (x < 0.5) {
    column = 0;
    cell = r() < 0.005 ? `user${i}.example.com` : `${r() < 0.5 ? ' ' : ''}First.Last${i}_${seed}@${pick(DOMAINS)}`;
  } else {
    column = 1;
    const exchange = `${2 + Math.floor(r() * 8)}${digits(2)}`;
    const y = r();
    if (r() < 0.005) cell = `+1 ${digits(3)}`;
    else if (y < 0.35) cell = `+1${pick(AREAS)}${exchange}${digits(4)}`;
    else if (y < 0.55) cell = `+1 (${pick(AREAS)}) ${exchange}-${digits(4)}`;
    else if (y < 0.62) cell = `+44 7400 ${digits(6)}`;
    else if (y < 0.7) cell = `+33 6 ${digits(2)} ${digits(2)} ${digits(2)} ${digits(2)}`;
    else cell = `(${pick(AREAS)}) ${exchange}-${digits(4)}`;
  }
  if (r() < 0.02) cell = `"${cell}"`;
  return column === 0 ? `${cell},` : `,${cell}`;
}

/** Writes the CSV: 1% of lines repeat the line before them, and `changed(i)` lines take another seed. */
async function writeCsv(path: string, changed: (i: number) => boolean): Promise<void> {
  const out = createWriteStream(path);
  let chunk = 'email,phone_number\r\n';
  for (let i = 0; i < LINES; i++) {
    const source = i % 100 === 50 ? i - 1 : i;
    chunk += `${line(source, changed(source) ? 2 : 1)}\r\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  // written back now, so the kernel's flushing does not run during the timed read
  const fd = openSync(path, 'r');
  fsyncSync(fd);
  closeSync(fd);
}

/** Runs the benchmark and returns its figures. */
export async function benchAudienceHash(): Promise<AudienceHashBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-audience-bench-'));
  try {
    const first = join(dir, 'members.csv');
    const second = join(dir, 'members-changed.csv');
    await writeCsv(first, () => false);
    await writeCsv(second, (i) => i % 100 === 37);
    const module = (name: string): string => JSON.stringify(new URL(`../src/members/sets/${name}.js`, import.meta.url).href);
    const script = `
      const { readMemberFile } = await import(${module('member-file')});
      const { diffMembers } = await import(${module('member-diff')});
      const { memberCount } = await import(${module('member-set')});
      const { userRequests, minimumUserRequests } = await import(${module('user-requests')});
      global.gc?.();
      const cpu = process.cpuUsage();
      const started = process.hrtime.bigint();
      const read = await readMemberFile(${JSON.stringify(first)}, { defaultRegion: 'US' });
      const readSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const used = process.cpuUsage(cpu);
      if (read.value === undefined) throw new Error(JSON.stringify(read.diagnostics));
      const members = read.value.members;
      let requests = 0, largest = 0;
      for (const r of userRequests('Update', members)) { requests++; largest = Math.max(largest, r.bytes); }
      const next = await readMemberFile(${JSON.stringify(second)}, { defaultRegion: 'US' });
      if (next.value === undefined) throw new Error(JSON.stringify(next.diagnostics));
      const delta = diffMembers(members, next.value.members);
      let deltaRequests = 0;
      for (const r of userRequests('Update', delta.added)) { deltaRequests++; largest = Math.max(largest, r.bytes); }
      for (const r of userRequests('Delete', delta.removed)) { deltaRequests++; largest = Math.max(largest, r.bytes); }
      const c = read.counts;
      process.stdout.write(JSON.stringify({
        lines: c.lines, identifiers: c.valid + c.invalid, valid: c.valid, invalid: c.invalid, duplicates: c.duplicates, members: memberCount(members),
        readSeconds, readCpuSeconds: (used.user + used.system) / 1e6, identifiersPerSecond: (c.valid + c.invalid) / readSeconds,
        requests, minimumRequests: minimumUserRequests(members), largestBodyBytes: largest,
        deltaAdded: delta.counts.added, deltaRemoved: delta.counts.removed, deltaRequests,
        deltaMinimum: minimumUserRequests(delta.added) + minimumUserRequests(delta.removed),
        peakRssMb: process.resourceUsage().maxRSS / 1024,
      }));
    `;
    const output = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
    return JSON.parse(output) as AudienceHashBenchResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the benchmark and prints its figures (bench/run.ts `audience-hash`). */
export async function runAudienceHashBench(): Promise<void> {
  const r = await benchAudienceHash();
  const n = (v: number): string => v.toLocaleString('en-US');
  console.log(`member file of ${n(r.lines)} lines, ${n(r.identifiers)} identifiers (${n(r.valid)} valid, ${n(r.invalid)} invalid, ${n(r.duplicates)} duplicates, ${n(r.members)} members) (bench/audience-hash-bench.ts)`);
  console.log(`  read ${r.readSeconds.toFixed(2)} s (CPU ${r.readCpuSeconds.toFixed(2)} s): ${n(Math.round(r.identifiersPerSecond))} identifiers/s (target >= 500,000); peak RSS ${r.peakRssMb.toFixed(0)} MB (target <= 512 MB)`);
  console.log(`  Update requests ${r.requests} / minimum ${r.minimumRequests} = ${(r.requests / r.minimumRequests).toFixed(3)}; largest body ${n(r.largestBodyBytes)} bytes (limit 5,000,000)`);
  console.log(`  1% of lines changed: ${n(r.deltaAdded)} added, ${n(r.deltaRemoved)} removed; requests ${r.deltaRequests} / minimum ${r.deltaMinimum} = ${(r.deltaRequests / r.deltaMinimum).toFixed(3)}`);
}
