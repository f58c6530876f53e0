/**
 * The text of `adsctl insights keywords`: what was asked (keywords, negative keywords, window,
 * location), the service's post volume per bucket with each bucket's start in UTC and the total,
 * then the 30 related keywords in columns. Pure and deterministic: the same query and answer
 * always give the same text, with no clock and no colour.
 */

/** The answer of the keyword insights lookup, as the service sends it. */
interface KeywordInsightsData {
  related_keywords: readonly string[];
  tweet_volume: readonly number[];
}

/** One keyword insights lookup: what was asked, and the answer. */
interface KeywordInsightsView {
  keywords: readonly string[];
  negatives: readonly string[];
  granularity: 'DAY' | 'HOUR';
  start: Date;
  end: Date;
  location: string | undefined;
  data: KeywordInsightsData;
}

const HOUR_MS = 3_600_000;
const RELATED_COLUMNS = 3;

const count = (n: number): string => n.toLocaleString('en-US');

function timeLabel(at: Date, dateOnly: boolean): string {
  const iso = at.toISOString();
  return dateOnly ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

function volumeLines(view: KeywordInsightsView): string[] {
  const size = view.granularity === 'DAY' ? 24 * HOUR_MS : HOUR_MS;
  const startMs = view.start.getTime();
  const dateOnly = view.granularity === 'DAY' && startMs % (24 * HOUR_MS) === 0;
  const volumes = view.data.tweet_volume;
  const rows: Array<[string, string]> = volumes.map((v, i) => [timeLabel(new Date(startMs + i * size), dateOnly), count(v)]);
  rows.push(['total', count(volumes.reduce((s, v) => s + v, 0))]);
  const header: [string, string] = [view.granularity === 'DAY' ? 'DAY FROM (UTC)' : 'HOUR FROM (UTC)', 'POSTS'];
  const left = Math.max(...[header, ...rows].map((r) => r[0].length));
  const right = Math.max(...[header, ...rows].map((r) => r[1].length));
  return [header, ...rows].map(([when, posts]) => `  ${when.padEnd(left)}  ${posts.padStart(right)}`);
}

function relatedLines(related: readonly string[]): string[] {
  if (related.length === 0) return ['  (none)'];
  const width = Math.max(...related.map((k) => k.length)) + 2;
  const lines: string[] = [];
  for (let i = 0; i < related.length; i += RELATED_COLUMNS) {
    lines.push(`  ${related.slice(i, i + RELATED_COLUMNS).map((k) => k.padEnd(width)).join('').trimEnd()}`);
  }
  return lines;
}

/** The readable table of one lookup, ending with a newline. */
export function renderKeywordInsights(view: KeywordInsightsView): string {
  const asked = view.keywords.join(' OR ');
  const without = view.negatives.length === 0 ? '' : `, without ${view.negatives.join(', ')}`;
  const where = view.location === undefined ? "the service's default country" : `location ${view.location}`;
  const unit = view.granularity === 'DAY' ? 'day' : 'hour';
  return [
    `Post volume of ${asked}${without}, in ${where}`,
    `${timeLabel(view.start, false)} to ${timeLabel(view.end, false)} UTC, by ${unit}`,
    '',
    ...volumeLines(view),
    '',
    `Related keywords (${view.data.related_keywords.length})`,
    ...relatedLines(view.data.related_keywords),
    '',
  ].join('\n');
}
