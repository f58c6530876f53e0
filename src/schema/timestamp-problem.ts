/**
 * What is wrong with a timestamp of a manifest, said as a person would: the day February does not
 * have, the missing zone, the hour 24; the general shape only when the text is no date at all.
 */

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2}))?(\.\d+)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The message for `text`, a timestamp refused at `label` (shown as `shown`): ISO 8601 with seconds
 * and a zone is what the manifest takes (docs/manifest.md).
 */
export function timestampProblem(label: string, shown: string, text: unknown): string {
  const general = `${label} ${shown} is not an ISO 8601 date-time with seconds and a zone, e.g. 2026-06-01T00:00:00Z`;
  const m = typeof text === 'string' ? SHAPE.exec(text) : null;
  if (m === null) return general;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return `${label} ${shown} is not a date: there is no month ${m[2]}, months run from 01 to 12`;
  const days = daysInMonth(year, month);
  if (day < 1 || day > days) return `${label} ${shown} is not a date: ${MONTHS[month - 1]} has ${days} days${month === 2 ? ` in ${year}` : ''}`;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (m[4] === undefined) return `${label} ${shown} has no time of day; write it with seconds and a zone, e.g. ${date}T00:00:00Z`;
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? '0')];
  if (hour > 23) return `${label} ${shown} is not a time: hours run from 00 to 23 (midnight ending ${date} is the next day's T00:00:00)`;
  if (minute > 59) return `${label} ${shown} is not a time: minutes run from 00 to 59`;
  if (second > 59) return `${label} ${shown} is not a time: seconds run from 00 to 59`;
  const time = `${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ?? ''}`;
  if (m[6] === undefined) return `${label} ${shown} has no seconds; write ${date}T${time}${m[8] ?? 'Z'}`;
  const zone = m[8];
  if (zone === undefined) return `${label} ${shown} has no zone; add Z for UTC or an offset such as +02:00 (the account's time zone is not known offline), e.g. ${date}T${time}Z`;
  if (zone !== 'Z' && zone !== 'z') {
    const digits = zone.slice(1).replace(':', '');
    if (Number(digits.slice(0, 2)) > 23 || (digits.length > 2 && Number(digits.slice(2)) > 59)) return `${label} ${shown} has no such zone offset as ${zone}: offsets run from -23:59 to +23:59`;
  }
  return general;
}
