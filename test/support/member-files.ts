/**
 * Synthetic member files for the audience end-to-end tests, made from a seeded generator so every
 * run writes the same bytes: people with an email (written with mixed case and stray spaces, as
 * CRM exports do) and, for some, a US phone number written nationally, plus what the service
 * should end up holding — the distinct identifiers after normalisation (emails trimmed and
 * lower-cased, phones in E.164), computed here independently of src/members/sets/.
 */

/** mulberry32: a small seedable generator (the same seed gives the same sequence). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One line of a member file: the cells as written and the identifiers they normalise to. */
export interface MemberLine {
  email: string;
  phone: string;
  /** `email:<normalised>` and `phone_number:<E.164>` for each valid cell. */
  identifiers: string[];
}

const AREAS = [202, 212, 305, 312, 415, 512, 617, 713, 206, 303];
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of [a-z0-9] drawn from `random`. */
export function token(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return out;
}

/** `text` with each letter upper-cased at random. */
export function mixedCase(random: () => number, text: string): string {
  return [...text].map((c) => (random() < 0.5 ? c.toUpperCase() : c)).join('');
}

/** A US number written nationally, `(415) 823-4471`, and its E.164 form `+14158234471`. */
export function usPhone(random: () => number): { raw: string; e164: string } {
  const area = AREAS[Math.floor(random() * AREAS.length)]!;
  const exchange = 200 + Math.floor(random() * 800);
  const line = String(Math.floor(random() * 10_000)).padStart(4, '0');
  return { raw: `(${area}) ${exchange}-${line}`, e164: `+1${area}${exchange}${line}` };
}

/**
 * `count` people drawn from `random`, each with a unique email (its local part tagged with
 * `prefix`) and, with probability `phoneShare`, a phone number. Emails are unique by their token;
 * phones may repeat across people (rarely), which the distinct count accounts for.
 */
export function people(random: () => number, count: number, prefix: string, phoneShare = 0.3): MemberLine[] {
  const out: MemberLine[] = [];
  for (let i = 0; i < count; i++) {
    const local = `${prefix}-${token(random, 12)}`;
    const email = `${local}@example.com`;
    const written = `${random() < 0.2 ? ' ' : ''}${mixedCase(random, email)}${random() < 0.2 ? ' ' : ''}`;
    const identifiers = [`email:${email}`];
    let phone = '';
    if (random() < phoneShare) {
      const p = usPhone(random);
      phone = p.raw;
      identifiers.push(`phone_number:${p.e164}`);
    }
    out.push({ email: written, phone, identifiers });
  }
  return out;
}

/** The CSV text of `lines` with the header `email,phone_number` (cells quoted when they hold a comma or quote). */
export function memberCsv(lines: readonly MemberLine[]): string {
  const cell = (v: string): string => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return `email,phone_number\n${lines.map((l) => `${cell(l.email)},${cell(l.phone)}`).join('\n')}\n`;
}

/** The distinct normalised identifiers of `lines`. */
export function distinctIdentifiers(lines: readonly MemberLine[]): Set<string> {
  return new Set(lines.flatMap((l) => l.identifiers));
}

/** The identifiers in `a` and not in `b`. */
export function minus(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a].filter((x) => !b.has(x)));
}
