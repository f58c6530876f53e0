/**
 * The apply journal read back (src/state/journal.ts, journal-record.ts): every record carries a
 * checksum; a damaged last line is a torn write, ignored as never sent; damage before it makes the
 * journal unreadable, with the line named, never "nothing to recover"; journals written before the
 * checksum existed are still read.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeRecord, encodeRecord } from '../../src/state/journal-record.js';
import { ApplyJournal } from '../../src/state/apply-journal.js';
import { describeJournalDamage, JournalFile, journalPath, readJournalFile } from '../../src/state/journal.js';

const ACCOUNT = '18ce54d4x5t';
let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-journal-'));
  path = journalPath(dir, ACCOUNT);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const create = (n: number) => ({ address: `campaigns.c${n}`, kind: 'campaign', action: 'create' as const, params: { name: `Campaign ${n} — été` } });

const readJournal = (): ReturnType<typeof readJournalFile> => readJournalFile(path);

/** A journal of three entries, the first two closed: five lines. */
async function written(): Promise<string[]> {
  const journal = new ApplyJournal(new JournalFile(path));
  for (const n of [1, 2, 3]) {
    const seq = await journal.intend([create(n)], 1_800_000_000_000 + n);
    if (n < 3) await journal.close(seq);
  }
  const lines = readFileSync(path, 'utf8').split('\n');
  expect(lines).toHaveLength(6);
  return lines;
}

describe('journal records', () => {
  it('carry a checksum of their JSON, and read back as written', () => {
    const line = encodeRecord({ intent: { seq: 1, at: 5, operations: [create(1)] } });
    expect(line).toMatch(/^\{"intent":.*,"sum":"[0-9a-f]{16}"\}\n$/);
    expect(decodeRecord(line.trimEnd())).toEqual({ record: { intent: { seq: 1, at: 5, operations: [create(1)] } } });
  });

  it.each([
    { name: 'not JSON', line: '{"done":1,"sum":"', problem: 'it is not JSON' },
    { name: 'a changed value', line: encodeRecord({ done: 12 }).trimEnd().replace('12', '13'), problem: 'its checksum does not match its content' },
    { name: 'another shape', line: '{"done":"1"}', problem: 'it is not a journal record' },
    { name: 'null', line: 'null', problem: 'it is not a journal record' },
  ])('say what is wrong with a line that is $name', ({ line, problem }) => {
    const decoded = decodeRecord(line);
    expect('problem' in decoded && decoded.problem).toContain(problem);
  });

  it('written before the checksum existed are read by their shape alone', () => {
    writeFileSync(path, `${JSON.stringify({ intent: { seq: 1, at: 5, operations: [create(1)] } })}\n${JSON.stringify({ done: 1 })}\n${JSON.stringify({ intent: { seq: 2, at: 6, operations: [create(2)] } })}\n`);
    const read = readJournal();
    expect(read.damage).toBeUndefined();
    expect(read.open.map((i) => i.seq)).toEqual([2]);
    expect(read.lastSeq).toBe(2);
  });
});

describe('readJournal', () => {
  it('reads a whole journal: the open entries and the last sequence number', async () => {
    await written();
    const read = readJournal();
    expect(read.damage).toBeUndefined();
    expect(read.open).toEqual([{ seq: 3, at: 1_800_000_000_003, operations: [create(3)] }]);
    expect(read.lastSeq).toBe(3);
  });

  it.each([
    { name: 'cut short', torn: (line: string) => line.slice(0, 25) },
    { name: 'changed, without its newline', torn: (line: string) => line.replace('"seq":3', '"seq":4') },
  ])('ignores a last line $name (a torn write: never sent), and the next append cuts it off', async ({ torn }) => {
    const lines = await written();
    writeFileSync(path, [...lines.slice(0, 4), torn(lines[4]!)].join('\n'));
    const read = readJournal();
    expect(read.damage).toBeUndefined();
    expect(read.open).toEqual([]);
    expect(read.lastSeq).toBe(2);

    const journal = new ApplyJournal(new JournalFile(path));
    await journal.close(await journal.intend([create(4)], 7));
    expect(readFileSync(path, 'utf8').split('\n').slice(0, 4)).toEqual(lines.slice(0, 4));
    expect(readJournal()).toMatchObject({ open: [], lastSeq: 3 });
  });

  it.each([1, 2, 3, 4])('refuses a journal damaged at line %i of 5, naming the file, the line and what to do', async (line) => {
    const lines = await written();
    lines[line - 1] = lines[line - 1]!.slice(0, 20);
    writeFileSync(path, lines.join('\n'));
    const { damage } = readJournal();
    expect(damage).toEqual({ path, line, lines: 5, problem: 'it is not JSON', since: 1_800_000_000_001 + (line === 1 ? 1 : 0) });
    const message = describeJournalDamage(damage!);
    expect(message).toContain(`${path}:${line}: the apply journal cannot be read whole: line ${line} of 5 is damaged (it is not JSON)`);
    expect(message).toContain('Keep the file.');
    expect(message).toContain('adsctl import');
    expect(() => new JournalFile(path)).toThrow(`line ${line} of 5`);
    expect(readFileSync(path, 'utf8')).toBe(lines.join('\n'));
  });

  it('refuses a complete last line that fails its checksum: only a line without its newline is torn', async () => {
    const lines = await written();
    writeFileSync(path, [...lines.slice(0, 4), `${lines[4]!.replace('"seq":3', '"seq":4')}`, ''].join('\n'));
    expect(readJournal().damage).toMatchObject({ line: 5, lines: 5, problem: 'its checksum does not match its content' });
  });

  it('is empty when there is no journal', () => {
    expect(readJournal()).toEqual({ open: [], outcomes: [], lastSeq: 0, whole: 0 });
    expect(existsSync(path)).toBe(false);
  });
});
