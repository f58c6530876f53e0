/**
 * Canary member files for the leak tests (test/engine/audience-canary.test.ts, in-process, and
 * test/e2e/audience-canary.test.ts, a CLI process): lines of unique markers (emails, phone numbers,
 * handles) drawn from a fixed seed, a few of them invalid, each marker recorded with every form it
 * may take (leak-scan.ts), and the manifest of an audience and a do-not-reach list that name the
 * two member files.
 */
import { seededAccountHead } from './e2e.js';
import type { Marker } from './leak-scan.js';
import { mixedCase, seededRandom, token } from './member-files.js';

/** One line of a member file: its cells by column. */
export type Line = Record<string, string>;

/** Marker lines drawn from one seed; `markers` holds every marker drawn so far. */
export interface Canaries {
  markers: Marker[];
  /** `count` lines of markers: an email each, a phone number on half of them, a handle on half (audience files only). */
  lines(count: number, withHandles: boolean): Line[];
  /** A line whose every cell is an invalid marker: an email without `@`, a number of no area, a handle with hyphens. */
  invalidLine(): Line;
}

/** Canary lines from the seed `seed`. */
export function canaries(seed: number): Canaries {
  const random = seededRandom(seed);
  const markers: Marker[] = [];
  const emailMarker = (): string => {
    const tok = token(random, 14);
    const email = `canary-${tok}@example.com`;
    const written = mixedCase(random, email);
    markers.push({ label: `email marker ${markers.length}`, forms: [{ kind: 'written', value: written }, { kind: 'normalised', value: email }, { kind: 'token', value: tok }] });
    return ` ${written} `;
  };
  const phoneMarker = (): string => {
    const area = [212, 305, 415, 617, 713][Math.floor(random() * 5)]!;
    const exchange = 200 + Math.floor(random() * 800);
    const line = String(Math.floor(random() * 10_000)).padStart(4, '0');
    const written = `(${area}) ${exchange}-${line}`;
    markers.push({
      label: `phone marker ${markers.length}`,
      forms: [
        { kind: 'written', value: written },
        { kind: 'E.164', value: `+1${area}${exchange}${line}` },
        { kind: 'national digits', value: `${area}${exchange}${line}` },
      ],
    });
    return written;
  };
  const handleMarker = (): string => {
    const tok = token(random, 10);
    const written = `@${mixedCase(random, `cx${tok}`)}`;
    markers.push({ label: `handle marker ${markers.length}`, forms: [{ kind: 'written', value: written }, { kind: 'normalised', value: `cx${tok}` }, { kind: 'token', value: tok }] });
    return written;
  };
  return {
    markers,
    lines: (count, withHandles) =>
      Array.from({ length: count }, () => ({
        email: emailMarker(),
        phone_number: random() < 0.5 ? phoneMarker() : '',
        ...(withHandles ? { handle: random() < 0.5 ? handleMarker() : '' } : {}),
      })),
    invalidLine: () => {
      const tok = token(random, 14);
      const digits = String(Math.floor(random() * 10_000_000)).padStart(7, '0');
      const htok = token(random, 8);
      markers.push({ label: `invalid email marker ${markers.length}`, forms: [{ kind: 'written', value: `canary-bad-${tok}` }, { kind: 'token', value: tok }] });
      markers.push({ label: `invalid phone marker ${markers.length}`, forms: [{ kind: 'written', value: `(000) ${digits.slice(0, 3)}-${digits.slice(3)}` }, { kind: 'digits', value: `000${digits}` }] });
      markers.push({ label: `invalid handle marker ${markers.length}`, forms: [{ kind: 'written', value: `@not-a-handle-${htok}` }, { kind: 'token', value: htok }] });
      return { email: `canary-bad-${tok}`, phone_number: `(000) ${digits.slice(0, 3)}-${digits.slice(3)}`, handle: `@not-a-handle-${htok}` };
    },
  };
}

/** A member file of `lines` with `columns`. */
export const csv = (columns: string[], lines: readonly Line[]): string => `${columns.join(',')}\n${lines.map((l) => columns.map((c) => l[c] ?? '').join(',')).join('\n')}\n`;

/** The manifest of the audience `custom_audiences.vip` (members in data/vip.csv) and the do-not-reach list (data/opt-outs.csv). */
export const canaryManifest = (endpoint: string, description = 'Our best customers'): string => `${seededAccountHead(endpoint)}custom_audiences:
  vip:
    name: VIP customers
    description: ${JSON.stringify(description)}
    users: { file: data/vip.csv, default_region: US }
do_not_reach:
  users: { file: data/opt-outs.csv, default_region: US }
`;

/** The valid identifiers of `lines` (all distinct: every marker is unique): every cell but those of the invalid line. */
export const validIdentifiers = (lines: readonly Line[]): number => lines.filter((l) => !l['email']!.startsWith('canary-bad-')).reduce((n, l) => n + Object.values(l).filter((v) => v !== '').length, 0);
