/**
 * A kept version's file is written in pieces (src/state/state-file.ts, `versionFilePieces`) and
 * must be, byte for byte, the `JSON.stringify` of the version it replaces, whatever the state's
 * members and their order, at and around the pieces' boundaries of 1,000 resources.
 */
import { describe, expect, it } from 'vitest';
import { versionFilePieces, type AccountState } from '../../src/state/state-file.js';

const resources = (count: number): AccountState['resources'] =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`campaigns.c${i}${i % 7 === 0 ? '.line_items["ü \\"q\\""]' : ''}`, { kind: 'campaign', id: `id${i}`, applied: { name: `N ${i}`, budget: i * 1_000_000, tags: [i, null, 'x'] } }]));

const state = (count: number, extra: Record<string, unknown> = {}): AccountState => ({ format_version: 1, account: 'acct', account_id: '18ce54d4x5t', endpoint: 'local', serial: 7, resources: resources(count), ...extra }) as AccountState;

describe('versionFilePieces', () => {
  it.each([
    { name: 'no resources', version: { written_at: '2026-12-07T00:00:00.000Z', written_by: 'ops@host', operation: 'apply', state: state(0) } },
    { name: 'one resource', version: { written_at: 'w', written_by: 'b', operation: 'apply', state: state(1) } },
    { name: 'exactly one piece', version: { written_at: 'w', written_by: 'b', operation: 'apply', state: state(1_000) } },
    { name: 'one past a piece', version: { written_at: 'w', written_by: 'b', operation: 'apply', state: state(1_001) } },
    { name: 'several pieces', version: { written_at: 'w', written_by: 'b', operation: 'state rm', state: state(2_500) } },
    { name: 'members after the resources, and one left out as undefined', version: { written_at: 'w', written_by: 'b', operation: 'apply', state: state(3, { unmanaged_seen: { campaign: ['a', 'b'] }, nothing: undefined }) } },
    { name: 'the state before the other members', version: { state: state(2), operation: 'pull', written_by: 'b', written_at: 'w' } },
  ])('$name: the text JSON.stringify gives', ({ version }) => {
    expect([...versionFilePieces(version)].join('')).toBe(`${JSON.stringify(version)}\n`);
  });
});
