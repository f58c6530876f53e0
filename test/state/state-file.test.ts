/**
 * Reading state files (src/state/state-file.ts) against schemas/state.schema.json: a state that
 * parses but has the wrong shape is refused, naming the file and the problem, never taken for an
 * empty state (which would create everything again) nor passed on to crash later. The shipped
 * validators are the ones the schemas compile to.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyState, readState, stateFileText, statePath, writeState, type AccountState } from '../../src/state/state-file.js';
import { stateAccounts } from '../../src/state/state-files.js';

const ACCOUNT = '18ce54d4x5t';
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-state-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const GOOD: AccountState = {
  format_version: 1,
  account: ACCOUNT,
  account_id: ACCOUNT,
  endpoint: 'local',
  serial: 3,
  resources: {
    'campaigns.c00': { kind: 'campaign', id: 'hz3n', applied: { name: 'Spring' }, created: true },
    'campaigns.c00.line_items.us': { kind: 'line_item', id: 'a8x1', applied: {}, protected: true },
  },
};

type Damage = (state: Record<string, any>) => unknown;
const entry = (edit: (e: Record<string, unknown>) => unknown): Damage => (s) => ({ ...s, resources: { ...s['resources'], 'campaigns.c00': edit(s['resources']['campaigns.c00']) } });

const FORMS: Array<{ name: string; damage: Damage; said: string }> = [
  { name: 'null', damage: () => null, said: 'the state must be an object, not null' },
  { name: 'an array', damage: () => [], said: 'the state must be an object, not an array' },
  { name: 'resources: []', damage: (s) => ({ ...s, resources: [] }), said: 'resources must be an object, not an array' },
  { name: 'resources: null', damage: (s) => ({ ...s, resources: null }), said: 'resources must be an object, not null' },
  { name: 'no resources', damage: ({ resources: _, ...s }) => s, said: 'the state has no resources' },
  { name: 'a resource null', damage: entry(() => null), said: 'resources["campaigns.c00"] must be an object, not null' },
  { name: 'applied: null', damage: entry((e) => ({ ...e, applied: null })), said: 'resources["campaigns.c00"].applied must be an object, not null' },
  { name: 'a numeric id', damage: entry((e) => ({ ...e, id: 12345 })), said: 'resources["campaigns.c00"].id must be a string, not 12345' },
  { name: 'an empty id', damage: entry((e) => ({ ...e, id: '' })), said: 'resources["campaigns.c00"].id must not be empty' },
  { name: 'no kind', damage: entry(({ kind: _, ...e }) => e), said: 'resources["campaigns.c00"] has no kind' },
  { name: 'protected: "yes"', damage: entry((e) => ({ ...e, protected: 'yes' })), said: 'resources["campaigns.c00"].protected must be true or false, not "yes"' },
  { name: 'an empty address', damage: (s) => ({ ...s, resources: { '': s['resources']['campaigns.c00'] } }), said: 'resources has an empty name' },
  { name: 'a negative serial', damage: (s) => ({ ...s, serial: -1 }), said: 'serial must be >= 0, not -1' },
  { name: 'account: 7', damage: (s) => ({ ...s, account: 7 }), said: 'account must be a string, not 7' },
];

describe('readState', () => {
  it('reads a state it wrote, and a missing file as an empty state', () => {
    writeState(dir, structuredClone(GOOD));
    expect(readState(dir, ACCOUNT, 'local')).toEqual({ ...GOOD, serial: 4 });
    expect(readState(dir, 'other', 'local')).toEqual(emptyState('other', 'local'));
  });

  it.each(FORMS)('refuses $name, naming the file and the problem', ({ damage, said }) => {
    writeFileSync(statePath(dir, ACCOUNT), JSON.stringify(damage(structuredClone(GOOD) as unknown as Record<string, any>)));
    const read = readState(dir, ACCOUNT, 'local');
    expect(typeof read).toBe('string');
    expect(read).toContain(`${statePath(dir, ACCOUNT)}: damaged state: ${said}`);
    expect(read).toContain('Nothing was changed');
  });

  it('says at most three problems at once, and how many more there are', () => {
    const resources = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`campaigns.c${i}`, null]));
    writeFileSync(statePath(dir, ACCOUNT), JSON.stringify({ ...GOOD, resources }));
    expect(readState(dir, ACCOUNT, 'local')).toContain('resources["campaigns.c2"] must be an object, not null; and 2 more problems.');
  });

  it('refuses JSON it cannot parse, and a format it does not know', () => {
    writeFileSync(statePath(dir, ACCOUNT), '{"format_version": 1, "resour');
    expect(readState(dir, ACCOUNT, 'local')).toMatch(/18ce54d4x5t\.json: not valid JSON .*Nothing was changed/);
    writeFileSync(statePath(dir, ACCOUNT), JSON.stringify({ ...GOOD, format_version: 2 }));
    expect(readState(dir, ACCOUNT, 'local')).toContain('state format 2, which this adsctl does not know');
  });
});

describe('stateAccounts', () => {
  it('lists a damaged state file by its name, so reading it says what is wrong', () => {
    writeState(dir, structuredClone({ ...GOOD, account: 'spring' }));
    writeFileSync(statePath(dir, ACCOUNT), 'null');
    expect(stateAccounts(dir)).toEqual([ACCOUNT, 'spring']);
  });
});

describe('the shipped state and journal validators', () => {
  it('are the ones schemas/state.schema.json and schemas/journal.schema.json compile to', () => {
    const script = fileURLToPath(new URL('../../scripts/generate-state-validators.mjs', import.meta.url));
    expect(() => execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8', stdio: 'pipe' })).not.toThrow();
    expect(readFileSync(new URL('../../schemas/state.validator.cjs', import.meta.url), 'utf8')).toContain('schemas/state.schema.json');
  });
});

describe('stateFileText', () => {
  const resource = (id: string, name: string): AccountState['resources'][string] => ({ kind: 'campaign', id, applied: { name, placements: ['ALL_ON_SERVICE'] }, created: true });
  const cases: Array<{ name: string; state: AccountState; lines: string[] }> = [
    { name: 'no resources', state: { ...emptyState('acct', 'local'), serial: 2 }, lines: ['{', '  "format_version": 1,', '  "account": "acct",', '  "endpoint": "local",', '  "serial": 2,', '  "resources": {}', '}'] },
    {
      name: 'resources one a line, by address, after the account key and id',
      state: { format_version: 1, account: 'acme/main.yaml', endpoint: 'sandbox', serial: 7, resources: { 'campaigns.b': resource('c2', 'B "quoted"'), 'campaigns.a': resource('c1', 'A') }, account_id: 'gq1' },
      lines: [
        '{',
        '  "format_version": 1,',
        '  "account": "acme/main.yaml",',
        '  "account_id": "gq1",',
        '  "endpoint": "sandbox",',
        '  "serial": 7,',
        '  "resources": {',
        '    "campaigns.a": {"kind":"campaign","id":"c1","applied":{"name":"A","placements":["ALL_ON_SERVICE"]},"created":true},',
        '    "campaigns.b": {"kind":"campaign","id":"c2","applied":{"name":"B \\"quoted\\"","placements":["ALL_ON_SERVICE"]},"created":true}',
        '  }',
        '}',
      ],
    },
  ];
  it.each(cases)('$name', ({ state, lines }) => {
    const text = stateFileText(state);
    expect(text).toBe(`${lines.join('\n')}\n`);
    expect(JSON.parse(text)).toEqual(state);
  });
});
