/**
 * `adsctl insights keywords KEYWORD...`: the keyword insights lookup of Part B (`GET
 * insights/keywords/search`), for choosing keyword targeting while writing a manifest. Prints
 * the post volume of the keywords per day or hour and 30 related keywords as a table, or with
 * `--json` the service's data as it came.
 *
 * The service's limits are checked before anything is sent (a one-line error and exit 1): at
 * most 10 keywords and negative keywords together, and a window of at most 7 days. Times are
 * ISO 8601 (`2026-06-01`, `2026-06-01T12:00:00Z`, `2026-06-01T14:00+02:00`; without a zone,
 * UTC) or relative to the moment of the run: `now`, `today` (00:00 UTC), either less an amount
 * (`now-36h`, `today-6d`; units m, h, d, w), or only the amount (`-2d` is `now-2d`). `--end`
 * defaults to now and `--start` to 7 days before `--end`. The endpoint is `--endpoint`, else
 * ADSCTL_ENDPOINT, else local (`chooseEndpoint`); credentials come as for the other commands, and `local`
 * runs the embedded emulator with its own.
 */
import type { Command } from 'commander';
import { chooseEndpoint } from '../api/endpoint-choice.js';
import { noCredentials, runHints } from '../engine/accounts.js';
import { keywordInsights } from '../engine/by-hand.js';
import { runFailure } from '../engine/failure.js';
import { renderKeywordInsights } from '../render/keyword-insights.js';
import { userCredentialsFrom } from './credentials.js';
import { openEndpoint } from './endpoint.js';
import type { Io, SetExit } from './io.js';
import { runOptions } from './run-options.js';

/** Keywords and negative keywords the service takes in one lookup, together. */
const MAX_KEYWORDS = 10;
/** The longest window (`end_time` minus `start_time`) the service takes. */
const MAX_WINDOW_MS = 7 * 24 * 3_600_000;

/** The options of `insights keywords` as commander reads them. */
export interface KeywordFlags {
  negative?: string[];
  granularity?: string;
  start?: string;
  end?: string;
  location?: string;
  json?: boolean;
  endpoint?: string;
  debug?: boolean;
}

/** A lookup that passed every check, ready to send. */
interface KeywordQuery {
  granularity: 'DAY' | 'HOUR';
  keywords: string[];
  negatives: string[];
  start: Date;
  end: Date;
  location: string | undefined;
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const RELATIVE = /^(now|today)?(?:-(\d+)([mhdw]))?$/i;

const wholeSecond = (ms: number): Date => new Date(Math.floor(ms / 1000) * 1000);

function isoTime(text: string): Date | undefined {
  const m = ISO.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone] = m;
  const daysInMonth = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > daysInMonth || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const offset = zone === undefined || zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const at = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * A time as `--start` and `--end` take it (see the file comment), at `now`, to the whole second;
 * undefined when it is neither ISO 8601 nor a relative form.
 */
export function parseTimeArg(text: string, now: Date): Date | undefined {
  const trimmed = text.trim();
  const rel = RELATIVE.exec(trimmed);
  if (rel !== null && trimmed !== '') {
    const [, base = 'now', amount, unit] = rel;
    const from = base.toLowerCase() === 'today' ? Math.floor(now.getTime() / UNIT_MS['d']!) * UNIT_MS['d']! : now.getTime();
    return wholeSecond(from - (amount === undefined ? 0 : Number(amount) * UNIT_MS[unit!.toLowerCase()]!));
  }
  const at = isoTime(trimmed);
  return at === undefined ? undefined : wholeSecond(at.getTime());
}

/** The words of keyword arguments: each argument may itself be a comma list; blanks dropped. */
const words = (args: readonly string[] | undefined): string[] =>
  (args ?? []).flatMap((a) => a.split(',')).map((k) => k.trim()).filter((k) => k !== '');

/** A length of time to the second, as `8d 12h 34m 56s` without the parts that are zero. */
function span(ms: number): string {
  const parts: Array<[number, string]> = [[UNIT_MS['d']!, 'd'], [UNIT_MS['h']!, 'h'], [UNIT_MS['m']!, 'm'], [1000, 's']];
  let rest = Math.floor(ms / 1000) * 1000;
  const shown: string[] = [];
  for (const [size, unit] of parts) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) shown.push(`${n}${unit}`);
  }
  return shown.join(' ');
}

/** `2026-06-01T00:00:00Z`: the form the service takes and the errors show. */
export const wireTime = (at: Date): string => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Checks a lookup against the service's rules at `now`, before anything is sent: keywords given,
 * granularity DAY or HOUR, at most 10 keywords and negative keywords together, times that read,
 * and a window after its start of at most 7 days. Returns the query, or the one-line problem.
 */
export function keywordQuery(args: readonly string[], flags: KeywordFlags, now: Date): { query: KeywordQuery } | { problem: string } {
  const keywords = words(args);
  const negatives = words(flags.negative);
  if (keywords.length === 0) return { problem: 'give at least one keyword' };
  const granularity = (flags.granularity ?? 'DAY').toUpperCase();
  if (granularity !== 'DAY' && granularity !== 'HOUR') return { problem: `--granularity must be DAY or HOUR, not ${JSON.stringify(flags.granularity)}` };
  const total = keywords.length + negatives.length;
  if (total > MAX_KEYWORDS) {
    return { problem: `${total} keywords and negative keywords (${keywords.length} + ${negatives.length}): the service takes at most ${MAX_KEYWORDS} together` };
  }
  const end = flags.end === undefined ? wholeSecond(now.getTime()) : parseTimeArg(flags.end, now);
  if (end === undefined) return { problem: `--end ${JSON.stringify(flags.end)} is not a time: expected ISO 8601 (2026-06-01T12:00:00Z) or now, today, now-36h, -2d` };
  const start = flags.start === undefined ? new Date(end.getTime() - MAX_WINDOW_MS) : parseTimeArg(flags.start, now);
  if (start === undefined) return { problem: `--start ${JSON.stringify(flags.start)} is not a time: expected ISO 8601 (2026-06-01T12:00:00Z) or now, today, now-36h, -2d` };
  if (end.getTime() <= start.getTime()) return { problem: `the start ${wireTime(start)} is not before the end ${wireTime(end)}` };
  const window = end.getTime() - start.getTime();
  if (window > MAX_WINDOW_MS) {
    return { problem: `the window ${wireTime(start)} to ${wireTime(end)} is ${span(window)} long: the service takes at most 7 days (set --start or --end)` };
  }
  const location = flags.location?.trim();
  if (location === '') return { problem: '--location is empty: give a country targeting value from the locations lookup' };
  return { query: { granularity, keywords, negatives, start, end, location } };
}

/** Sends a checked lookup and prints the answer; errors of the endpoint or the service are one line. */
async function lookUp(io: Io, setExit: SetExit, query: KeywordQuery, flags: KeywordFlags): Promise<void> {
  const choice = chooseEndpoint({ flag: flags.endpoint, environment: io.env['ADSCTL_ENDPOINT'] });
  const { name } = choice;
  // no flags of its own for these: the run's options are their defaults, and the environment's
  const run = runOptions({}, io);
  const open = await openEndpoint(name, '.adsctl', run.clock, run.lockTimeoutMs, run.connectTimeoutMs);
  if (typeof open === 'string') {
    io.err(`Error: ${choice.source === 'environment' ? 'ADSCTL_ENDPOINT: ' : ''}${open}\n`);
    return setExit(1);
  }
  try {
    const found = open.builtInCredentials === undefined ? userCredentialsFrom(io.env, name) : { credentials: open.builtInCredentials, source: undefined };
    if (found === undefined) {
      io.err(`Error: ${noCredentials(name)}\n`);
      return setExit(1);
    }
    const hand = { endpoint: open.endpoint, options: run, ...(flags.debug === true ? { trace: (line: string) => io.err(`[debug] ${line}\n`) } : {}) };
    try {
      const data = await keywordInsights(hand, found.credentials, runHints(choice, found.source), {
        granularity: query.granularity,
        keywords: query.keywords,
        start_time: wireTime(query.start),
        end_time: wireTime(query.end),
        ...(query.location === undefined ? {} : { location: query.location }),
        ...(query.negatives.length === 0 ? {} : { negative_keywords: query.negatives }),
      });
      io.out(flags.json === true ? `${JSON.stringify(data, null, 2)}\n` : renderKeywordInsights({ ...query, data }));
      setExit(0);
    } catch (error) {
      const failure = runFailure(error);
      if (failure === undefined) throw error;
      io.err(`Error: ${failure.message.replace(/\s*\n\s*/g, ' ')}\n`);
      setExit(1);
    }
  } finally {
    await open.close();
  }
}

/** Adds `insights keywords` to the program. */
export function registerInsights(program: Command, io: Io, setExit: SetExit): void {
  const insights = program.command('insights').description('look up keyword volumes and related keywords');
  insights
    .command('keywords')
    .description('post volume of keywords per day or hour, and 30 related keywords, in one country')
    .argument('<keyword...>', 'keywords, OR-ed (a comma list works too)')
    .option('--negative <keyword...>', 'negative keywords, after the keywords (at most 10 keywords and negative keywords together)')
    .option('--granularity <unit>', 'DAY or HOUR (default: DAY)')
    .option('--start <time>', 'ISO 8601, or now, today, now-36h, today-6d, -2d (default: 7 days before --end)')
    .option('--end <time>', 'the same forms (default: now); at most 7 days after --start')
    .option('--location <value>', "a country's targeting value from the locations lookup (default: the service's)")
    .option('--json', "print the service's data as JSON")
    .option('--endpoint <name>', 'local, sandbox, production or http(s)://host:port (default: ADSCTL_ENDPOINT, else local)')
    .option('--debug', 'print a request trace (credentials redacted)')
    .action(async (args: string[], flags: KeywordFlags) => {
      const checked = keywordQuery(args, flags, io.clock.now());
      if ('problem' in checked) {
        io.err(`Error: ${checked.problem}\n`);
        return setExit(1);
      }
      await lookUp(io, setExit, checked.query, flags);
    });
}
