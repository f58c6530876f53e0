import { describe, expect, it } from 'vitest';
import { timestampProblem } from '../../src/schema/timestamp-problem.js';

describe('timestampProblem says what is wrong with a timestamp', () => {
  it.each([
    ['2027-02-30T00:00:00Z', 'start_time "2027-02-30T00:00:00Z" is not a date: February has 28 days in 2027'],
    ['2028-02-30T00:00:00Z', 'start_time "2028-02-30T00:00:00Z" is not a date: February has 29 days in 2028'],
    ['2026-04-31T00:00:00Z', 'start_time "2026-04-31T00:00:00Z" is not a date: April has 30 days'],
    ['2026-13-01T00:00:00Z', 'start_time "2026-13-01T00:00:00Z" is not a date: there is no month 13, months run from 01 to 12'],
    ['2026-06-01', 'start_time "2026-06-01" has no time of day; write it with seconds and a zone, e.g. 2026-06-01T00:00:00Z'],
    ['2026-06-01T09:00:00', 'start_time "2026-06-01T09:00:00" has no zone; add Z for UTC or an offset such as +02:00 (the account\'s time zone is not known offline), e.g. 2026-06-01T09:00:00Z'],
    ['2026-06-01T09:00Z', 'start_time "2026-06-01T09:00Z" has no seconds; write 2026-06-01T09:00:00Z'],
    ['2026-06-01T24:00:00Z', 'start_time "2026-06-01T24:00:00Z" is not a time: hours run from 00 to 23 (midnight ending 2026-06-01 is the next day\'s T00:00:00)'],
    ['2026-06-01T23:60:00Z', 'start_time "2026-06-01T23:60:00Z" is not a time: minutes run from 00 to 59'],
    ['2026-06-01T23:59:60Z', 'start_time "2026-06-01T23:59:60Z" is not a time: seconds run from 00 to 59'],
    ['2026-06-01T00:00:00+24:00', 'start_time "2026-06-01T00:00:00+24:00" has no such zone offset as +24:00: offsets run from -23:59 to +23:59'],
    ['June 30th', 'start_time "June 30th" is not an ISO 8601 date-time with seconds and a zone, e.g. 2026-06-01T00:00:00Z'],
  ])('%s', (text, message) => {
    expect(timestampProblem('start_time', JSON.stringify(text), text)).toBe(message);
  });
});
