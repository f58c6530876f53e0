/**
 * The creates of an interrupted apply as the plan counts them (src/plan/in-flight.ts): an address
 * whose create the live account shows — a record no change binds, with the identity the create
 * was sent with — is counted once, as that record.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../src/diff/types.js';
import { landedCreates, type InFlightCreate } from '../../src/plan/in-flight.js';
import { change, liveAccount } from './builders.js';

const sent = (address: string, name: string): InFlightCreate => ({ address, kind: 'campaign', params: { name, funding_instrument_id: 'lygyi' } });
const record = (id: string, name: string): ['campaign', Record<string, unknown>] => ['campaign', { id, name, funding_instrument_id: 'lygyi', entity_status: 'ACTIVE' }];

const rows: Array<{ name: string; inFlight: InFlightCreate[]; live: Array<['campaign', Record<string, unknown>]>; changes?: ResourceChange[]; landed: string[] }> = [
  { name: 'nothing in flight', inFlight: [], live: [record('c1', 'A')], landed: [] },
  { name: 'a create the service made', inFlight: [sent('campaigns.a', 'A')], live: [record('c1', 'A')], landed: ['campaigns.a'] },
  { name: 'a create that never reached the service', inFlight: [sent('campaigns.a', 'A')], live: [record('c1', 'B')], landed: [] },
  { name: 'a record another address binds is not it', inFlight: [sent('campaigns.a', 'A')], live: [record('c1', 'A')], changes: [change('campaigns.old', 'noop', { id: 'c1' })], landed: [] },
  { name: 'two identical creates, one record: only one landed', inFlight: [sent('campaigns.a', 'A'), sent('campaigns.b', 'A')], live: [record('c1', 'A')], landed: ['campaigns.a'] },
  { name: 'a kind that cannot be found again is not counted', inFlight: [{ address: 'x', kind: 'nonsense', params: {} }], live: [], landed: [] },
];

describe('landedCreates', () => {
  it.each(rows)('$name', (row) => {
    expect([...landedCreates(row.inFlight, liveAccount(row.live), row.changes ?? [])].sort()).toEqual(row.landed);
  });
});
