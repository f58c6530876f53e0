/**
 * The hours of account history a plan reads (src/live/history-window.ts): whole hours only, the
 * start floored to the hour of the last apply, the end the first whole hour after now.
 */
import { describe, expect, it } from 'vitest';
import { floorHour, historyWindow, hourAfter } from '../../src/live/history-window.js';

const at = (iso: string): Date => new Date(iso);

describe('historyWindow', () => {
  const cases: Array<{ name: string; lastApply: string; now: string; start: string; end: string }> = [
    { name: 'within one hour', lastApply: '2026-11-26T14:12:03.456Z', now: '2026-11-26T14:40:00.000Z', start: '2026-11-26T14:00:00Z', end: '2026-11-26T15:00:00Z' },
    { name: 'across hours', lastApply: '2026-11-26T09:59:59.999Z', now: '2026-11-26T14:00:00.001Z', start: '2026-11-26T09:00:00Z', end: '2026-11-26T15:00:00Z' },
    { name: 'last apply on a whole hour keeps that hour', lastApply: '2026-11-26T14:00:00.000Z', now: '2026-11-26T14:30:00.000Z', start: '2026-11-26T14:00:00Z', end: '2026-11-26T15:00:00Z' },
    { name: 'now on a whole hour moves the excluded end on', lastApply: '2026-11-26T12:30:00.000Z', now: '2026-11-26T14:00:00.000Z', start: '2026-11-26T12:00:00Z', end: '2026-11-26T15:00:00Z' },
    { name: 'both the same whole hour', lastApply: '2026-11-26T14:00:00.000Z', now: '2026-11-26T14:00:00.000Z', start: '2026-11-26T14:00:00Z', end: '2026-11-26T15:00:00Z' },
    { name: 'across midnight and a month', lastApply: '2026-11-30T23:45:00.000Z', now: '2026-12-01T00:15:00.000Z', start: '2026-11-30T23:00:00Z', end: '2026-12-01T01:00:00Z' },
    { name: 'across a year', lastApply: '2026-12-31T23:59:59.000Z', now: '2027-01-01T00:00:01.000Z', start: '2026-12-31T23:00:00Z', end: '2027-01-01T01:00:00Z' },
    { name: 'days apart', lastApply: '2026-11-20T08:05:00.000Z', now: '2026-11-26T14:59:59.999Z', start: '2026-11-20T08:00:00Z', end: '2026-11-26T15:00:00Z' },
    { name: 'a last apply after now (clocks apart) gives its own hour', lastApply: '2026-11-26T14:20:00.000Z', now: '2026-11-26T13:50:00.000Z', start: '2026-11-26T14:00:00Z', end: '2026-11-26T15:00:00Z' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const w = historyWindow(at(c.lastApply), at(c.now));
      expect(w).toEqual({ start: c.start, end: c.end });
      // what the endpoint requires: whole hours, the end after the start
      for (const t of [w.start, w.end]) expect(t).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00Z$/);
      expect(Date.parse(w.end)).toBeGreaterThan(Date.parse(w.start));
      // and what attribution needs: every moment from the last apply to now inside [start, end)
      expect(Date.parse(w.start)).toBeLessThanOrEqual(at(c.lastApply).getTime());
      expect(Date.parse(w.end)).toBeGreaterThan(Math.max(at(c.lastApply).getTime(), at(c.now).getTime()));
    });
  }
});

describe('floorHour and hourAfter', () => {
  const cases: Array<[time: string, floor: string, after: string]> = [
    ['2026-11-26T14:00:00.000Z', '2026-11-26T14:00:00.000Z', '2026-11-26T15:00:00.000Z'],
    ['2026-11-26T14:00:00.001Z', '2026-11-26T14:00:00.000Z', '2026-11-26T15:00:00.000Z'],
    ['2026-11-26T14:59:59.999Z', '2026-11-26T14:00:00.000Z', '2026-11-26T15:00:00.000Z'],
    ['2026-11-26T23:30:00.000Z', '2026-11-26T23:00:00.000Z', '2026-11-27T00:00:00.000Z'],
    ['1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z', '1970-01-01T01:00:00.000Z'],
  ];
  for (const [time, floor, after] of cases) {
    it(time, () => {
      expect(floorHour(at(time)).toISOString()).toBe(floor);
      expect(hourAfter(at(time)).toISOString()).toBe(after);
    });
  }
});
