import { describe, expect, it } from 'vitest';
import { RateTracker } from '../../src/api/rate-tracker.js';

const h = (limit: number, remaining: number, reset: number): Record<string, string> => ({ 'x-rate-limit-limit': String(limit), 'x-rate-limit-remaining': String(remaining), 'x-rate-limit-reset': String(reset) });

type Step = { observe: Record<string, string> } | { start: number } | { finish: number } | { exhaust: number } | { delay: number; now: number };

describe('RateTracker', () => {
  const cases: Array<{ name: string; steps: Step[] }> = [
    { name: 'nothing known: send', steps: [{ delay: 0, now: 0 }] },
    { name: 'budget left covers the requests in flight', steps: [{ observe: h(10, 3, 100) }, { start: 2 }, { delay: 0, now: 50_000 }] },
    { name: 'budget spoken for by requests in flight: wait for the reset', steps: [{ observe: h(10, 3, 100) }, { start: 3 }, { delay: 50_050, now: 50_000 }] },
    { name: 'an answer of the window that arrives late does not raise what is left', steps: [{ observe: h(10, 1, 100) }, { observe: h(10, 4, 100) }, { start: 1 }, { delay: 50_050, now: 50_000 }] },
    { name: 'the next window is taken at its full limit', steps: [{ observe: h(10, 0, 100) }, { delay: 0, now: 100_000 }, { start: 9 }, { delay: 0, now: 100_001 }] },
    { name: 'requests beyond a new window wait for its first answers', steps: [{ observe: h(10, 0, 100) }, { delay: 0, now: 100_000 }, { start: 10 }, { delay: 100, now: 100_001 }] },
    { name: 'a new window reports itself and is believed', steps: [{ observe: h(10, 0, 100) }, { delay: 0, now: 100_000 }, { start: 10 }, { finish: 1 }, { observe: h(10, 0, 160) }, { delay: 59_950, now: 100_100 }] },
    { name: 'a 429 without known limit: wait for its reset, then learn again', steps: [{ exhaust: 100 }, { delay: 10_050, now: 90_000 }, { delay: 0, now: 100_000 }, { start: 5 }, { delay: 0, now: 100_000 }] },
    { name: 'a new window waits on its first answer only while one is in flight', steps: [{ observe: h(1, 0, 100) }, { delay: 0, now: 100_000 }, { start: 1 }, { delay: 100, now: 100_000 }, { finish: 1 }, { delay: 0, now: 100_000 }] },
  ];
  it.each(cases)('$name', ({ steps }) => {
    const t = new RateTracker();
    for (const step of steps) {
      if ('observe' in step) t.observe('k', step.observe);
      else if ('start' in step) for (let i = 0; i < step.start; i++) t.start('k');
      else if ('finish' in step) for (let i = 0; i < step.finish; i++) t.finish('k');
      else if ('exhaust' in step) t.exhaust('k', step.exhaust);
      else expect(t.delayBefore('k', step.now)).toBe(step.delay);
    }
  });
});
