/**
 * Which runs are large enough that their lock heartbeat starts at once rather than a quarter of
 * its interval later (src/engine/accounts.ts, `largeRun`; src/state/lock-heartbeat.ts): the
 * objects of the manifests (or, for a saved plan, its changes) and of the states read, in all.
 */
import { describe, expect, it } from 'vitest';
import { LARGE_RUN_OBJECTS, largeRun } from '../../src/engine/accounts.js';
import type { DesiredAccount } from '../../src/manifest/types.js';

const desired = (resources: number): DesiredAccount => ({ resources: Array.from({ length: resources }) }) as unknown as DesiredAccount;
const state = (entries: number): { resources: Record<string, never> } => ({ resources: Object.fromEntries(Array.from({ length: entries }, (_, i) => [`r${i}`, {} as never])) });

describe('largeRun', () => {
  it.each([
    { name: 'a small manifest, nothing applied yet', targets: [{ desired: desired(1_450) }], states: [state(0)], large: false },
    { name: 'a small manifest over its state', targets: [{ desired: desired(1_450) }], states: [state(1_450)], large: false },
    { name: 'a first apply of 5,000 objects', targets: [{ desired: desired(LARGE_RUN_OBJECTS) }], states: [state(0)], large: true },
    { name: 'a manifest and its state at 2,500 each', targets: [{ desired: desired(2_500) }], states: [state(2_500)], large: true },
    { name: 'a destroy of a large state (no manifest objects)', targets: [{ desired: desired(0) }], states: [state(6_000)], large: true },
    { name: 'a saved plan of 6,000 changes into an empty state', targets: [{ objects: 6_000 }], states: [state(0)], large: true },
    { name: 'a saved plan of 10 changes', targets: [{ objects: 10 }], states: [state(100)], large: false },
    { name: 'many small accounts, large together', targets: Array.from({ length: 20 }, () => ({ desired: desired(300) })), states: Array.from({ length: 20 }, () => state(0)), large: true },
  ])('$name: large $large', ({ targets, states, large }) => {
    expect(largeRun(targets, states)).toBe(large);
  });
});
