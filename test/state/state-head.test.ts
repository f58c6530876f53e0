import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTopLevel, scanTopLevel } from '../../src/state/state-head.js';
import { stateAccounts } from '../../src/state/state-files.js';
import { emptyState, writeStateFile } from '../../src/state/state-file.js';

describe('scanTopLevel', () => {
  const cases: Array<{ name: string; text: string; wanted: string[]; values: Record<string, unknown>; complete: boolean }> = [
    { name: 'first member', text: '{"account": "a1", "resources": {"x": 1}}', wanted: ['account'], values: { account: 'a1' }, complete: true },
    { name: 'after scalars and nested values', text: '{ "n": 1.5e3, "t": true, "z": null, "o": {"a": [1, {"b": "}"}]}, "s": "q\\"}", "account" : "k" }', wanted: ['account'], values: { account: 'k' }, complete: true },
    { name: 'escaped key and value', text: '{"acc\\u006funt": "a\\u00e9"}', wanted: ['account'], values: { account: 'aé' }, complete: true },
    { name: 'object ends without it', text: '{"format_version": 1}', wanted: ['account'], values: {}, complete: true },
    { name: 'empty object', text: ' {\n} ', wanted: ['account'], values: {}, complete: true },
    { name: 'not an object', text: '[1]', wanted: ['account'], values: {}, complete: false },
    { name: 'cut inside a nested value', text: '{"resources": {"a": {"b": 1', wanted: ['account'], values: {}, complete: false },
    { name: 'cut inside a string', text: '{"account": "a1', wanted: ['account'], values: {}, complete: false },
    { name: 'cut inside a number', text: '{"serial": 12', wanted: ['account'], values: {}, complete: false },
    { name: 'malformed after the member', text: '{"account": "a1" "x": 2}', wanted: ['account'], values: { account: 'a1' }, complete: true },
    { name: 'malformed before the member', text: '{"x" 2, "account": "a1"}', wanted: ['account'], values: {}, complete: false },
    { name: 'non-string value', text: '{"account_id": 7}', wanted: ['account_id'], values: { account_id: 7 }, complete: true },
    { name: 'the first of a duplicated member', text: '{"account": "a", "account": "b"}', wanted: ['account'], values: { account: 'a' }, complete: true },
  ];
  it.each(cases)('$name', ({ text, wanted, values, complete }) => {
    const scanned = scanTopLevel(text, wanted);
    expect(scanned.complete).toBe(complete);
    if (complete) expect(Object.fromEntries(scanned.values)).toEqual(values);
  });
});

describe('readTopLevel', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-head-'));
  const big = JSON.stringify({ format_version: 1, resources: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`r${i}`, { kind: 'campaign', id: `id${i}` }])), account: 'late' });

  it('reads the head only when it holds the member', () => {
    const path = join(dir, 'early.json');
    writeFileSync(path, `{"format_version": 1, "account": "early", "resources": ${JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`r${i}`, i])))}}`);
    let wholeReads = 0;
    expect(readTopLevel(path, ['account'], () => (wholeReads++, '{}'))?.get('account')).toBe('early');
    expect(wholeReads).toBe(0);
  });

  it('reads the whole file when the member comes after what the head holds', () => {
    const path = join(dir, 'late.json');
    writeFileSync(path, big);
    let wholeReads = 0;
    expect(readTopLevel(path, ['account'], () => (wholeReads++, big))?.get('account')).toBe('late');
    expect(wholeReads).toBe(1);
  });

  it('is undefined for a file that is not a JSON object', () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"account": ');
    expect(readTopLevel(path, ['account'], () => '{"account": ')).toBeUndefined();
  });

  it('lists the accounts of large state files written by adsctl from their heads', () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'adsctl-head-state-'));
    const state = emptyState('acme/main.yaml', 'http://127.0.0.1:1');
    state.resources = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`campaigns.c${i}`, { kind: 'campaign', id: `id${i}`, applied: { name: `Campaign ${i}` } }]));
    state.account_id = 'abc123';
    writeStateFile(stateDir, state);
    writeFileSync(join(stateDir, 'late.json'), big);
    // the key and the id are written before the resources: a few hundred bytes hold them
    const head = readFileSync(join(stateDir, 'acme_main.yaml.json'), 'utf8').slice(0, 300);
    expect(Object.fromEntries(scanTopLevel(head, ['account', 'account_id']).values)).toEqual({ account: 'acme/main.yaml', account_id: 'abc123' });
    expect(stateAccounts(stateDir)).toEqual(['acme/main.yaml', 'late']);
  });
});
