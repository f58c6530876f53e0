/**
 * `readMemberHeader`: a member file's header read alone says what the whole reading says of it
 * (`readMemberFile`, what a plan reads), with the same code, position and message, however the
 * bytes are cut into chunks, and nothing of a file whose header is sound, whatever its
 * identifiers are; it stops reading once the header is read.
 */
import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMemberFile } from '../../../src/members/sets/member-file.js';
import { readMemberHeader } from '../../../src/members/sets/member-header.js';
import { CHUNK_BYTES } from '../../../src/members/sets/member-text.js';
import { scratch } from './files.js';

const { file } = scratch();

/** The bytes of the file at `path` in chunks of `size`. */
const chunksOf = (path: string, size: number): AsyncIterable<Buffer> => createReadStream(path, { highWaterMark: size });

/** Chunk sizes a file is read in: as a plan reads it, and tiny ones — but how lines end is told by the first chunk, which must hold a line. */
const sizesFor = (name: string): number[] => (name.includes('CR alone') ? [CHUNK_BYTES] : [3, CHUNK_BYTES]);

const BAD: Array<[string, string | Buffer]> = [
  ['a misspelt type', 'emial\nann@example.com\n'],
  ['a type named twice', 'email,handle,email\nann@example.com,ann,\n'],
  ['an empty column', 'email,\nann@example.com,\n'],
  ['a cell that is no type', 'email,+1 415 555 2671\nann@example.com,x\n'],
  ['no type at all, an identifier in its place', 'secret.person@example.com\nother@example.com\n'],
  ['an empty first line', '\nemail\nann@example.com\n'],
  ['an empty file', ''],
  ['a byte order mark alone', '\uFEFF'],
  ['a quoted header never closed', '"email\nann@example.com\n'],
  ['text after a closing quote', '"email"x\nann@example.com\n'],
  ['a header longer than a line may be', `${'email,'.repeat(20_000)}email\n`],
  ['a byte that is not UTF-8 in the header', Buffer.from([0x65, 0x6d, 0xe9, 0x69, 0x6c, 0x0a])],
  ['a misspelt type, lines ending in CR alone', 'emial\rann@example.com\r'],
];

const SOUND: Array<[string, string]> = [
  ['one type', 'email\nann@example.com\n'],
  ['several types, any case, with spaces', ' EMAIL , Phone_Number ,partner_user_id\nann@example.com,,crm-1\n'],
  ['quoted types over CR LF', '"email","handle"\r\nann@example.com,ann\r\n'],
  ['a byte order mark', '\uFEFFemail\nann@example.com\n'],
  ['lines ending in CR alone', 'email\rann@example.com\r'],
  ['a header alone, without a line break', 'email'],
  ['identifiers that are invalid, or a data line that is bad CSV', 'email\nnot-an-email\nab"c@example.com\n'],
];

describe('readMemberHeader', () => {
  it.each(BAD)('refuses %s exactly as the whole reading does', async (name, text) => {
    const path = file(`${name}.csv`, text);
    const whole = (await readMemberFile(path, { shownAs: 'x.csv' })).diagnostics.filter((d) => d.severity === 'error');
    expect(whole).toHaveLength(1);
    for (const size of sizesFor(name)) expect(await readMemberHeader(chunksOf(path, size), 'x.csv'), `chunks of ${size}`).toEqual(whole);
  });

  it.each(SOUND)('says nothing of %s', async (name, text) => {
    const path = file(`${name}.csv`, text);
    for (const size of sizesFor(name)) expect(await readMemberHeader(chunksOf(path, size), 'x.csv'), `chunks of ${size}`).toEqual([]);
  });

  it('stops reading once the header is read', async () => {
    let given = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      yield Buffer.from('email,handle\n');
      for (;;) {
        given++;
        yield Buffer.from('ann@example.com,ann\n');
      }
    }
    expect(await readMemberHeader(endless(), 'x.csv')).toEqual([]);
    expect(given).toBe(0);
  });

  it('never shows a value of the file', async () => {
    const said = JSON.stringify(await readMemberHeader(chunksOf(file('leak.csv', 'secret.person@example.com,+1 415 555 2671\n'), 1024), 'x.csv'));
    expect(said).not.toMatch(/secret|415/);
  });
});
