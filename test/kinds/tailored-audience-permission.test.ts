/**
 * The tailored audience permission kind (version 5 grants): read from an audience's
 * `tailored_permissions` like version 12's `permissions`, addressed by the granted account, its
 * audience a reference filled into `tailored_audience_id`, and one group with the version 12 kind
 * whose records it reads.
 */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/registry.js';
import { formatAddress } from '../../src/manifest/address.js';
import { loadManifestSources } from '../../src/manifest/load.js';

const manifest = `version: 1
account: { id: "18ce54d4x5t" }
custom_audiences:
  partners:
    name: Partners
    permissions: { 2iqph: READ_ONLY }
    tailored_permissions: { 3kr9z: READ_WRITE }
`;

describe('tailored_audience_permission', () => {
  it('is read from tailored_permissions, keyed by the granted account, naming its audience', () => {
    const loaded = loadManifestSources([{ file: 'a.yaml', text: manifest }]);
    expect(loaded.diagnostics).toEqual([]);
    const grant = loaded.value?.accounts[0]?.resources.find((r) => r.kind === 'tailored_audience_permission');
    expect(grant === undefined ? undefined : formatAddress(grant.address)).toBe('custom_audiences.partners.tailored_permissions["3kr9z"]');
    expect(grant?.attributes).toEqual({ granted_account_id: '3kr9z', permission_level: 'READ_WRITE' });
    expect(grant?.references['tailored_audience_id'] === undefined ? undefined : formatAddress(grant.references['tailored_audience_id'])).toBe('custom_audiences.partners');
  });

  it('refuses a level the API does not have, at its value', () => {
    const loaded = loadManifestSources([{ file: 'a.yaml', text: manifest.replace('READ_WRITE', 'OWNER') }]);
    expect(loaded.diagnostics.map((d) => [d.code, d.range?.start.line])).toEqual([['schema-enum', 7]]);
  });

  it('reads the records of audience_permission, through version 5, and leaves their drift to it', () => {
    const d = KINDS.tailored_audience_permission;
    expect(d.sameRecordsAs).toBe('audience_permission');
    expect(d.owned).toBe(false);
    expect(KINDS.audience_permission.owned).toBe(true);
    expect(d.read.via).toBe('custom');
  });
});
