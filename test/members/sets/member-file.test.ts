import { describe, expect, it } from 'vitest';
import { memberSetOf } from '../../../src/members/sets/member-builder.js';
import { readMemberFile, type MemberFileResult } from '../../../src/members/sets/member-file.js';
import { memberCount, memberSetHash } from '../../../src/members/sets/member-set.js';
import type { Diagnostic } from '../../../src/diag/diagnostic.js';
import { formatPosition } from '../../../src/diag/source-range.js';
import { scratch } from './files.js';

const { file } = scratch();

/** `file:line:col: code: message` of each diagnostic, as a reader sees them. */
const shown = (r: MemberFileResult): string[] => r.diagnostics.map((d: Diagnostic) => `${d.range === undefined ? '' : `${formatPosition(d.range)}: `}${d.code}: ${d.message}`);

const PLAIN = ['email,phone_number,partner_user_id', 'Ann@Example.com,+1 415 555 2671,crm-1', ' bob@example.org ,,crm-2', ',+44 20 7946 0958,'];
const EXPECTED = memberSetOf({
  email: ['ann@example.com', 'bob@example.org'],
  phone_number: ['+14155552671', '+442079460958'],
  partner_user_id: ['crm-1', 'crm-2'],
});

describe('readMemberFile: CSV', () => {
  it('reads the types the header names, skipping empty cells', async () => {
    const r = await readMemberFile(file('plain.csv', `${PLAIN.join('\n')}\n`));
    expect(r.diagnostics).toEqual([]);
    expect(memberSetHash(r.value!.members)).toBe(memberSetHash(EXPECTED));
    expect(r.counts).toMatchObject({ lines: 3, valid: 6, invalid: 0, duplicates: 0, invalidLines: [], invalidLineCount: 0 });
    expect(r.counts.byType.email).toEqual({ valid: 2, invalid: 0, duplicates: 0 });
  });

  const variants: Array<[string, string]> = [
    ['CR LF line ends', `${PLAIN.join('\r\n')}\r\n`],
    ['a byte order mark', `\uFEFF${PLAIN.join('\n')}`],
    ['no final line break', PLAIN.join('\n')],
    ['quoted fields', PLAIN.map((l) => l.split(',').map((c) => `"${c}"`).join(',')).join('\r\n')],
    ['an upper-case header with spaces', [' EMAIL , Phone_Number ,partner_user_id', ...PLAIN.slice(1)].join('\n')],
  ];
  it.each(variants)('reads the same members with %s', async (name, text) => {
    const r = await readMemberFile(file(`${name}.csv`, text));
    expect(r.diagnostics).toEqual([]);
    expect(memberSetHash(r.value!.members)).toBe(memberSetHash(EXPECTED));
    expect(r.counts.lines).toBe(3);
  });

  it('reads RFC 4180 quoting: commas, doubled quotes and line breaks inside quotes', async () => {
    const text = ['partner_user_id,email', '"crm,1","a@example.com"', '"say ""hi""",', '"two', 'lines",b@example.com', 'plain,'].join('\r\n');
    const r = await readMemberFile(file('quoting.csv', text));
    expect(r.diagnostics).toEqual([]);
    expect([...r.value!.members.partnerIds].sort()).toEqual(['crm,1', 'plain', 'say "hi"', 'two\r\nlines']);
    expect(memberCount(r.value!.members, 'email')).toBe(2);
    expect(r.counts.lines).toBe(5);
  });

  it('counts duplicates of the same type, not across types', async () => {
    const text = ['email,partner_user_id', 'a@example.com,a@example.com', 'A@EXAMPLE.COM,x', 'a@example.com,x'].join('\n');
    const r = await readMemberFile(file('dupes.csv', text));
    expect(r.counts).toMatchObject({ valid: 6, duplicates: 3 });
    expect(r.counts.byType.email.duplicates).toBe(2);
    expect(memberCount(r.value!.members)).toBe(3);
  });

  const headerErrors: Array<[string, string, string, RegExp]> = [
    ['an unknown column', 'email,fax\na@example.com,1\n', 'x.csv:1:7', /^column 2 of the header names no identifier type/],
    ['an identifier where a column name belongs', 'email,secret.person@example.com\n', 'x.csv:1:7', /^column 2 of the header names no identifier type/],
    ['an empty column', 'email,,handle\n', 'x.csv:1:7', /column 2 of the header is empty/],
    ['a column named twice', 'email,handle,email\n', 'x.csv:1:14', /names email twice \(columns 1 and 3\)/],
    ['an empty file', '', 'x.csv:1:1', /is empty/],
  ];
  it.each(headerErrors)('refuses a header with %s, at its position', async (_, text, where, message) => {
    const r = await readMemberFile(file('header.csv', text), { shownAs: 'x.csv' });
    expect(r.value).toBeUndefined();
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]!.severity).toBe('error');
    expect(shown(r)[0]).toMatch(new RegExp(`^${where.replace(/\./g, '\\.')}(:|: )`));
    expect(r.diagnostics[0]!.message).toMatch(message);
  });

  it('never shows a header cell, naming its column by position instead', async () => {
    const r = await readMemberFile(file('leaky-header.csv', 'email,+1 415 555 2671\na@example.com,x\n'), { shownAs: 'x.csv' });
    expect(shown(r)).toEqual([expect.stringMatching(/^x\.csv:1:7: audience-file-header: column 2 of the header names no identifier type/)]);
    expect(shown(r).join('\n')).not.toContain('415');
  });

  it('does not print the first line of a file whose header is missing', async () => {
    const r = await readMemberFile(file('no-header.csv', 'secret.person@example.com\nother@example.com\n'), { shownAs: 'x.csv' });
    expect(r.value).toBeUndefined();
    expect(shown(r)).toEqual([expect.stringMatching(/^x\.csv:1:1: audience-file-header: the first line names no identifier type/)]);
    expect(shown(r).join('\n')).not.toContain('secret');
  });

  const syntaxErrors: Array<[string, string, string, RegExp]> = [
    ['a quote inside an unquoted field', 'email\na@example.com\nab"c@example.com\n', 'x.csv:3:3', /a quote inside an unquoted field/],
    ['text after a closing quote', 'email,handle\n"a@example.com"x,bob\n', 'x.csv:2:16', /text follows a closing quote/],
    ['a quoted field never closed', 'email,handle\na@example.com,bob\nb@example.com,"bob\nmore\n', 'x.csv:3:15', /a quoted field is not closed/],
    ['more fields than the header', 'email,handle\na@example.com,bob,extra\n', 'x.csv:2:19', /the line has 3 fields but the header names 2 columns/],
  ];
  it.each(syntaxErrors)('stops at %s, naming the line and column only', async (_, text, where, message) => {
    const r = await readMemberFile(file('syntax.csv', text), { shownAs: 'x.csv' });
    expect(r.value).toBeUndefined();
    expect(shown(r)[0]).toMatch(new RegExp(`^${where.replace(/\./g, '\\.')}: audience-file-syntax: `));
    expect(r.diagnostics[0]!.message).toMatch(message);
    expect(shown(r).join('\n')).not.toMatch(/example\.com|bob|extra/);
  });

  it('refuses a line longer than the limit without holding it', async () => {
    const r = await readMemberFile(file('long.csv', `email\n${'a'.repeat(200_000)}@example.com\n`), { shownAs: 'x.csv' });
    expect(r.value).toBeUndefined();
    expect(shown(r)).toEqual([expect.stringMatching(/^x\.csv:2:1: audience-file-syntax: the line is longer than 65536 characters/)]);
  });
});

describe('readMemberFile: invalid identifiers', () => {
  it('reports invalid lines by number and position, never by value', async () => {
    const secrets = ['not-an-email', 'secret@nowhere', '+1 999', 'bad handle!'];
    const text = ['email,phone_number,handle', 'a@example.com,+14155552671,alice', `${secrets[0]},+14155552672,bob`, 'c@example.com,,carol', `${secrets[1]},${secrets[2]},`, `d@example.com,,${secrets[3]}`].join('\n');
    const r = await readMemberFile(file('invalid.csv', text), { shownAs: 'x.csv' });
    expect(r.value).toBeDefined();
    expect(r.counts).toMatchObject({ lines: 5, valid: 8, invalid: 4, invalidLines: [3, 5, 6], invalidLineCount: 3 });
    expect(r.counts.byType.phone_number.invalid).toBe(1);
    expect(shown(r)).toEqual([
      'x.csv:3:1: audience-invalid-identifiers: 4 of 12 identifiers are invalid and left out (2 email, 1 phone_number, 1 handle; on lines 3, 5, 6); the first is not an email address (one @, a local part, and a domain with a dot)',
    ]);
    expect(r.diagnostics[0]!.severity).toBe('warning');
    const everything = JSON.stringify(r);
    for (const s of secrets) expect(everything).not.toContain(s);
  });

  it('keeps the first 20 invalid line numbers and counts the rest', async () => {
    const lines = ['email'];
    for (let i = 0; i < 60; i++) lines.push(i % 2 === 0 ? `user${i}@example.com` : `invalid${i}`);
    const r = await readMemberFile(file('many-invalid.csv', lines.join('\n')));
    expect(r.value).toBeDefined();
    expect(r.counts.invalidLines).toEqual(Array.from({ length: 20 }, (_, i) => 3 + 2 * i));
    expect(r.counts.invalidLineCount).toBe(30);
    expect(r.diagnostics[0]!.message).toContain('on lines 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39, 41, and 10 more');
  });

  it('fails a file whose identifiers are mostly invalid, as a value', async () => {
    const text = ['email', 'a@example.com', 'b@example.com', 'nope1', 'nope2', 'nope3'].join('\n');
    const r = await readMemberFile(file('mostly-invalid.csv', text), { shownAs: 'x.csv' });
    expect(r.value).toBeUndefined();
    expect(r.counts).toMatchObject({ valid: 2, invalid: 3 });
    expect(shown(r)).toEqual([
      'x.csv:4:1: audience-mostly-invalid: 3 of 5 identifiers are invalid, more than half: check the file\'s columns and format (3 email; on lines 4, 5, 6); the first is not an email address (one @, a local part, and a domain with a dot)',
    ]);
    expect(JSON.stringify(r)).not.toContain('nope');
  });

  it('accepts a file with exactly half invalid', async () => {
    const r = await readMemberFile(file('half.csv', ['email', 'a@example.com', 'nope'].join('\n')));
    expect(r.value).toBeDefined();
    expect(r.diagnostics.map((d) => d.severity)).toEqual(['warning']);
  });
});

describe('readMemberFile: one identifier a line', () => {
  it('reads every line as a value of the type, without header', async () => {
    const text = '\uFEFF(415) 555-2671\r\n+44 20 7946 0958\r\n\r\n  \r\n415.555.2671\r\n';
    const r = await readMemberFile(file('phones.txt', text), { type: 'phone_number', defaultRegion: 'us' });
    expect(r.diagnostics).toEqual([]);
    expect(memberSetHash(r.value!.members)).toBe(memberSetHash(memberSetOf({ phone_number: ['+14155552671', '+442079460958'] })));
    expect(r.counts).toMatchObject({ lines: 5, valid: 3, duplicates: 1 });
  });

  it('takes a partner id line as it is, quotes and commas included', async () => {
    const r = await readMemberFile(file('partners.txt', ' "a,b" \nc\n'), { type: 'partner_user_id' });
    expect([...r.value!.members.partnerIds].sort()).toEqual(['"a,b"', 'c']);
  });

  it('refuses an unknown default region and type before reading', async () => {
    const region = await readMemberFile(file('r.txt', 'x\n'), { type: 'phone_number', defaultRegion: 'XX' });
    expect(region.diagnostics.map((d) => d.code)).toEqual(['audience-default-region']);
    const type = await readMemberFile(file('t.txt', 'x\n'), { type: 'fax' as 'email' });
    expect(type.diagnostics.map((d) => d.code)).toEqual(['audience-file-type']);
  });

  it('reports a file that cannot be read with its path', async () => {
    const r = await readMemberFile('/nonexistent/members.csv');
    expect(r.value).toBeUndefined();
    expect(shown(r)).toEqual(['audience-file-unreadable: cannot read the member file /nonexistent/members.csv (ENOENT)']);
  });
});

describe('readMemberFile: large files', () => {
  it('hashes on a worker thread to the same set as in place', async () => {
    const n = 150_000;
    const emails = Array.from({ length: n }, (_, i) => `user${i % 140_000}@example.com`);
    const phones = Array.from({ length: n }, (_, i) => `+1415${String(2_000_000 + i)}`);
    const text = ['email,phone_number', ...emails.map((e, i) => `${e},${phones[i]}`)].join('\n');
    const r = await readMemberFile(file('large.csv', text));
    expect(r.diagnostics).toEqual([]);
    expect(r.counts).toMatchObject({ lines: n, valid: 2 * n, duplicates: 10_000 });
    expect(memberSetHash(r.value!.members)).toBe(memberSetHash(memberSetOf({ email: emails, phone_number: phones })));
  });
});

describe('readMemberFile: encodings and line endings', () => {
  const latin1 = Buffer.from('email\na@example.com\nren\xe9@example.com\n', 'latin1');
  const notUtf8: Array<[string, Buffer, number, number]> = [
    ['Latin-1 (an é as one byte)', latin1, 23, 3],
    ['a lone continuation byte', Buffer.concat([Buffer.from('email\n'), Buffer.from([0x80]), Buffer.from('@example.com\n')]), 6, 2],
    ['an overlong encoding', Buffer.concat([Buffer.from('email\nx'), Buffer.from([0xc0, 0xaf]), Buffer.from('@example.com\n')]), 7, 2],
    ['an encoded surrogate', Buffer.concat([Buffer.from('email\nx'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('@example.com\n')]), 7, 2],
    ['a sequence cut off at the end', Buffer.concat([Buffer.from('email\na@example.com\n'), Buffer.from([0xe2, 0x82])]), 20, 3],
  ];
  it.each(notUtf8)('refuses a file that is not UTF-8 — %s — at the byte offset, with the hint to re-encode', async (_, bytes, offset, line) => {
    const r = await readMemberFile(file('encoding.csv', bytes), { shownAs: 'x.csv' });
    expect(r.value).toBeUndefined();
    expect(r.diagnostics.map((d) => d.code)).toEqual(['audience-file-encoding']);
    expect(r.diagnostics[0]!.message).toBe(`the member file x.csv is not UTF-8: byte ${offset} (on line ${line}) is not valid UTF-8; save the file as UTF-8 (for example: iconv -f LATIN1 -t UTF-8)`);
    expect(r.diagnostics[0]!.message).not.toContain('example.com');
  });

  it('finds a bad byte past the first chunk, and reads a sequence split across chunks', async () => {
    const head = `email\n${'a'.repeat(40)}@example.com\n`.repeat(30_000);
    const good = Buffer.concat([Buffer.from(head), Buffer.from('\u00e9t\u00e9@example.com\n')]);
    const ok = await readMemberFile(file('split.csv', Buffer.concat([Buffer.from('email\n'), Buffer.from('x'.repeat((1 << 20) - 7)), Buffer.from('\u00e9@example.com\n')])), { shownAs: 'x.csv' });
    expect(ok.diagnostics.map((d) => d.code)).not.toContain('audience-file-encoding');
    const bad = await readMemberFile(file('late.csv', Buffer.concat([good, Buffer.from([0xff]), Buffer.from('\n')])), { shownAs: 'x.csv' });
    expect(bad.diagnostics.map((d) => d.message)).toEqual([`the member file x.csv is not UTF-8: byte ${good.length} (on line 60002) is not valid UTF-8; save the file as UTF-8 (for example: iconv -f LATIN1 -t UTF-8)`]);
  });

  const endings: Array<[string, string]> = [
    ['LF', '\n'],
    ['CR LF', '\r\n'],
    ['CR alone', '\r'],
  ];
  it.each(endings)('reads a CSV whose lines end with %s', async (_, eol) => {
    const r = await readMemberFile(file('endings.csv', PLAIN.join(eol) + eol));
    expect(r.diagnostics).toEqual([]);
    expect(memberSetHash(r.value!.members)).toBe(memberSetHash(EXPECTED));
  });

  it('names the right line of a CR-only file', async () => {
    const r = await readMemberFile(file('cr-lines.csv', 'email,handle\ra@example.com,bob\rb@example.com,bob,extra\r'), { shownAs: 'x.csv' });
    expect(shown(r)).toEqual([expect.stringMatching(/^x\.csv:3:\d+: audience-file-syntax: the line has 3 fields but the header names 2 columns/)]);
  });
});

