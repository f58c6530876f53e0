/**
 * The plan's check of fields the service requires on create (src/plan/rules.ts): a create without
 * one is `missing-required`, but a membership whose members were not read from the file it names
 * is not — its reading reported why (a bad header, a file not UTF-8, ...), and a second error
 * telling the user to set what they set would mislead.
 */
import { describe, expect, it } from 'vitest';
import type { LiveAccount } from '../../src/live/types.js';
import { checkRules } from '../../src/plan/rules.js';
import { change } from '../render/plan-builder.js';

const LIVE: LiveAccount = { account: 'acct', accountId: '18ce54d4x5t', currencies: {}, resources: new Map(), missing: new Set() };
const MEMBERS = { hash: 'h', count: 120, added: 120, removed: 0, unchanged: 0 };

describe('fields required on create', () => {
  it.each([
    { name: 'a membership whose file was read', address: 'custom_audiences.newsletter.users', after: { custom_audience_id: 'ca1', file: 'data/members.csv', members: MEMBERS }, codes: [] },
    { name: 'a membership whose file could not be read (its reading said why)', address: 'custom_audiences.newsletter.users', after: { custom_audience_id: 'ca1', file: 'data/members.csv' }, codes: [] },
    { name: 'the do-not-reach list, its file not read', address: 'do_not_reach.users', after: { do_not_reach_list_id: 'd1', file: 'data/opt-outs.csv' }, codes: [] },
    { name: 'a membership that names no file', address: 'custom_audiences.newsletter.users', after: { custom_audience_id: 'ca1' }, codes: ['missing-required'] },
    { name: 'a funding instrument without its currency', address: 'funding_instruments.card', after: { type: 'CREDIT_CARD', start_time: '2026-01-01T00:00:00Z' }, codes: ['missing-required'] },
  ])('$name: $codes', ({ address, after, codes }) => {
    expect(checkRules([change(address, 'create', { after })], undefined, LIVE).map((d) => d.code)).toEqual(codes);
  });
});
