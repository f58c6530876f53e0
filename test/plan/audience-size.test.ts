/**
 * The plan's audience size check (src/plan/audience-size.ts): a CUSTOM_AUDIENCE criterion the plan
 * creates is refused with `audience-too-small` at its position when its audience will match fewer
 * than 100 users after the apply — a member file of fewer valid distinct identifiers, a new
 * audience without members, or a live audience the service reports TOO_SMALL whose members the
 * plan does not set. A criterion in place is refused only when the plan's own upload shrinks its
 * audience, and warned about otherwise. Also: refresh reads an audience named by raw id, and the
 * descriptor's minimum is the emulator's.
 */
import { describe, expect, it } from 'vitest';
import type { SourceRange } from '../../src/diag/source-range.js';
import type { Action, ResourceChange } from '../../src/diff/types.js';
import { TARGETABLE_MEMBERS as EMULATOR_MINIMUM } from '../../src/emulator/handlers/custom-audience-model.js';
import { KINDS } from '../../src/kinds/registry.js';
import { readNeeds } from '../../src/live/read-plan.js';
import { formatAddress } from '../../src/manifest/address.js';
import type { DesiredAccount, DesiredResource, ResourceAddress } from '../../src/manifest/types.js';
import { checkAudienceSizes } from '../../src/plan/audience-size.js';
import { emptyState } from '../../src/state/state-file.js';
import { addr, change, liveAccount } from './builders.js';

const LI = 'campaigns.c.line_items.l';
const AUDIENCE = 'custom_audiences.fans';
const AUDIENCE_ID = 'ca-fans';
const RAW_ID = 'ca-raw';

/** A range on line `line` of account.yaml. */
const at = (line: number, column = 11): SourceRange => ({ file: 'account.yaml', start: { line, column, offset: line * 100 + column }, end: { line, column: column + 10, offset: line * 100 + column + 10 } });

function resource(address: ResourceAddress, attributes: Record<string, unknown>, line: number, extra: Partial<DesiredResource> = {}): DesiredResource {
  return { address, kind: address.kind, attributes, references: {}, dependsOn: [], lifecycle: { preventDestroy: false, ignoreChanges: [] }, source: at(line, 7), attributeSources: {}, ...extra };
}

/** What a row says about the audience, its members, the criterion and the live record. */
interface Row {
  name: string;
  /** The audience of the manifest is new, bound to `AUDIENCE_ID`, or not in the manifest (the criterion names `RAW_ID`). */
  audience: 'new' | 'bound' | 'raw';
  /** Valid distinct identifiers in the member file; `unread` when the file could not be read; absent: no users section. */
  members?: number | 'unread';
  membersAction?: Action;
  criterion?: Action;
  type?: string;
  /** The live record of the targeted audience (`AUDIENCE_ID` or `RAW_ID`). */
  live?: { targetable: boolean; reasons: string[] };
  /** The manifest binds `RAW_ID` itself, with a member file of this many. */
  rawBoundWith?: number;
  expected: Array<'error' | 'warning'>;
}

const TOO_SMALL = { targetable: false, reasons: ['PROCESSING', 'TOO_SMALL'] };
const TARGETABLE = { targetable: true, reasons: [] };

/** The changes, desired account and live account a row describes. */
function scenario(row: Row): { changes: ResourceChange[]; desired: DesiredAccount; live: ReturnType<typeof liveAccount> } {
  const type = row.type ?? 'CUSTOM_AUDIENCE';
  const raw = row.audience === 'raw';
  const audienceAddress = addr(AUDIENCE);
  const criterionAddress = addr(`${LI}.targeting["${type}:${raw ? RAW_ID : AUDIENCE}"]`);
  const boundId = row.audience === 'bound' ? AUDIENCE_ID : raw && row.rawBoundWith !== undefined ? RAW_ID : undefined;
  const value = raw ? RAW_ID : row.audience === 'bound' ? AUDIENCE_ID : { $ref: AUDIENCE };
  const criterion = resource(criterionAddress, { targeting_type: type, targeting_value: raw ? RAW_ID : { $target: audienceAddress }, operator_type: 'EQ' }, 30, {
    references: raw ? {} : { targeting_value: audienceAddress },
    attributeSources: { targeting_value: at(30) },
  });
  const resources: DesiredResource[] = [criterion];
  const changes: ResourceChange[] = [];
  const criterionAction = row.criterion ?? 'create';
  changes.push(change(formatAddress(criterionAddress), criterionAction, criterionAction === 'create' ? { after: { targeting_type: type, targeting_value: value } } : { id: 'tc-1', after: { targeting_type: type, targeting_value: value } }));
  const members = raw ? row.rawBoundWith : row.members;
  if (!raw || row.rawBoundWith !== undefined) {
    resources.push(resource(audienceAddress, { name: 'Fans' }, 10));
    changes.push(change(AUDIENCE, boundId === undefined ? 'create' : 'noop', boundId === undefined ? { after: { name: 'Fans' } } : { id: boundId, after: { name: 'Fans' } }));
    if (members !== undefined) {
      const membership = addr(`${AUDIENCE}.users`);
      const value = members === 'unread' ? {} : { members: { hash: 'h', count: members, added: members, removed: 0, unchanged: 0 } };
      resources.push(resource(membership, { file: 'data/fans.csv', ...value }, 12, { parent: audienceAddress, attributeSources: { file: at(12, 20) } }));
      const action = row.membersAction ?? (boundId === undefined ? 'create' : 'update');
      changes.push(change(`${AUDIENCE}.users`, action, action === 'create' ? { after: value } : { id: boundId ?? '', after: value }));
    }
  }
  const liveId = raw ? RAW_ID : AUDIENCE_ID;
  const live = liveAccount(row.live === undefined ? [] : [['custom_audience', { id: liveId, name: 'Fans', targetable: row.live.targetable, reasons_not_targetable: row.live.reasons }]]);
  return { changes, desired: { file: 'account.yaml', key: 'acct', resources }, live };
}

describe('checkAudienceSizes', () => {
  const rows: Row[] = [
    { name: 'a new audience from a file of 50 identifiers', audience: 'new', members: 50, expected: ['error'] },
    { name: 'a new audience from a file of 99 identifiers', audience: 'new', members: 99, expected: ['error'] },
    { name: 'a new audience from a file of 100 identifiers', audience: 'new', members: 100, expected: [] },
    { name: 'a new audience from a file that could not be read (its own error says why)', audience: 'new', members: 'unread', expected: [] },
    { name: 'a new audience without a users section', audience: 'new', expected: ['error'] },
    { name: 'CUSTOM_AUDIENCE_EXPANDED of a new audience of 50', audience: 'new', members: 50, type: 'CUSTOM_AUDIENCE_EXPANDED', expected: ['error'] },
    { name: 'a replaced criterion of an audience of 50', audience: 'bound', members: 50, membersAction: 'noop', criterion: 'replace', live: { targetable: false, reasons: ['TOO_SMALL'] }, expected: ['error'] },
    { name: 'a live audience without a users section the service reports TOO_SMALL', audience: 'bound', live: TOO_SMALL, expected: ['error'] },
    { name: 'a live audience without a users section the service targets', audience: 'bound', live: TARGETABLE, expected: [] },
    { name: 'a live audience not targetable for another reason than its size', audience: 'bound', live: { targetable: false, reasons: ['PROCESSING'] }, expected: [] },
    { name: 'a live audience reported TOO_SMALL that the plan fills to 150', audience: 'bound', members: 150, live: TOO_SMALL, expected: [] },
    { name: 'an audience named by raw id the service reports TOO_SMALL', audience: 'raw', live: { targetable: false, reasons: ['TOO_SMALL'] }, expected: ['error'] },
    { name: 'an audience named by raw id the service targets', audience: 'raw', live: TARGETABLE, expected: [] },
    { name: 'an audience named by raw id that was not found', audience: 'raw', expected: [] },
    { name: 'a raw id of an audience the manifest binds and fills to 200', audience: 'raw', rawBoundWith: 200, live: TOO_SMALL, expected: [] },
    { name: 'a raw id of an audience the manifest binds with a file of 20', audience: 'raw', rawBoundWith: 20, live: TARGETABLE, expected: ['error'] },
    { name: 'a criterion in place whose audience the plan shrinks to 50', audience: 'bound', members: 50, membersAction: 'update', criterion: 'noop', live: TARGETABLE, expected: ['error'] },
    { name: 'a criterion in place whose audience of 50 the plan leaves alone', audience: 'bound', members: 50, membersAction: 'noop', criterion: 'noop', live: { targetable: false, reasons: ['TOO_SMALL'] }, expected: ['warning'] },
    { name: 'a criterion in place whose live audience is TOO_SMALL', audience: 'bound', criterion: 'noop', live: TOO_SMALL, expected: ['warning'] },
    { name: 'a criterion being deleted', audience: 'bound', members: 50, membersAction: 'noop', criterion: 'delete', live: TOO_SMALL, expected: [] },
    { name: 'a LOCATION criterion', audience: 'raw', type: 'LOCATION', live: TOO_SMALL, expected: [] },
  ];
  it.each(rows)('$name', (row) => {
    const { changes, desired, live } = scenario(row);
    const found = checkAudienceSizes(changes, desired, live);
    expect(found.map((d) => d.severity)).toEqual(row.expected);
    for (const d of found) expect(d.code).toBe('audience-too-small');
  });

  it('points at the criterion, names the file and its count, and shows where the file is named', () => {
    const { changes, desired, live } = scenario({ name: '', audience: 'new', members: 50, expected: [] });
    const [d] = checkAudienceSizes(changes, desired, live);
    expect(d?.message).toBe(`${LI}.targeting["CUSTOM_AUDIENCE:${AUDIENCE}"] targets ${AUDIENCE}, whose member file data/fans.csv holds 50 valid distinct identifiers: the service targets a custom audience only once it matches at least 100 users`);
    expect(d?.range).toEqual(at(30));
    expect(d?.related).toEqual([{ message: 'the member file is named here', range: at(12, 20) }]);
  });

  it('names a live audience by its id, its name and the reasons the service gives', () => {
    const { changes, desired, live } = scenario({ name: '', audience: 'raw', live: TOO_SMALL, expected: [] });
    const [d] = checkAudienceSizes(changes, desired, live);
    expect(d?.message).toBe(`${LI}.targeting["CUSTOM_AUDIENCE:${RAW_ID}"] targets custom audience ${RAW_ID} ("Fans"), which the service reports not targetable (PROCESSING, TOO_SMALL), and this plan uploads no members to it: the service targets a custom audience only once it matches at least 100 users`);
    expect(d?.related).toBeUndefined();
  });
});

describe('the rule and its reads', () => {
  it('needs as many users as the emulator does', () => {
    expect(KINDS.custom_audience.targetable?.minimum).toBe(EMULATOR_MINIMUM);
  });

  it.each([
    ['an audience named by raw id is read', 'CUSTOM_AUDIENCE', RAW_ID, [RAW_ID]],
    ['an expanded audience named by raw id is read', 'CUSTOM_AUDIENCE_EXPANDED', RAW_ID, [RAW_ID]],
    ['an audience named by logical name is read through its binding only', 'CUSTOM_AUDIENCE', { $target: addr(AUDIENCE) }, undefined],
    ['a location is not an audience', 'LOCATION', '96683cc9126741d1', undefined],
  ] as const)('%s', (_name, type, value, expected) => {
    const criterion = resource(addr(`${LI}.targeting["${type}:x"]`), { targeting_type: type, targeting_value: value }, 30);
    const needs = readNeeds({ file: 'account.yaml', key: 'acct', resources: [criterion] }, emptyState('acct', 'local'));
    expect(needs.kinds.has('targeting_criterion')).toBe(true);
    expect(needs.kinds.get('custom_audience') === undefined ? undefined : [...(needs.kinds.get('custom_audience') ?? [])]).toEqual(expected);
  });
});
