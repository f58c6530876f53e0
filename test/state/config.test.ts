/**
 * adsctl.yaml, the state configuration of a root (src/state/config.ts): local by default,
 * PostgreSQL with the variable that holds the connection string, and every mistake — above all a
 * connection string written into the file — an error at its line and column.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readStateConfig } from '../../src/state/config.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adsctl-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('adsctl.yaml', () => {
  it('is not needed: without it, state is local', () => {
    expect(readStateConfig(dir)).toEqual({ config: { backend: 'local', connectionStringEnv: 'ADSCTL_POSTGRES_URL', schema: 'adsctl' }, diagnostics: [] });
  });

  it.each([
    { text: 'state:\n  backend: local\n', config: { backend: 'local' } },
    { text: 'state:\n  backend: postgres\n', config: { backend: 'postgres', connectionStringEnv: 'ADSCTL_POSTGRES_URL', schema: 'adsctl' } },
    { text: 'state:\n  backend: postgres\n  connection_string_env: TEAM_DB\n  schema: ads_team\n', config: { backend: 'postgres', connectionStringEnv: 'TEAM_DB', schema: 'ads_team' } },
  ])('reads $text', ({ text, config }) => {
    writeFileSync(join(dir, 'adsctl.yaml'), text);
    const read = readStateConfig(dir);
    expect(read.diagnostics).toEqual([]);
    expect(read.config).toMatchObject(config);
  });

  it.each([
    { name: 'a connection string in the file', text: 'state:\n  backend: postgres\n  connection_string: postgres://u:p@h/db\n', code: 'config-secret', line: 3, column: 3, says: 'must not be written in adsctl.yaml' },
    { name: 'a connection string in place of the variable', text: 'state:\n  backend: postgres\n  connection_string_env: postgres://u:p@h/db\n', code: 'config-secret', line: 3, column: 26, says: 'not the string itself' },
    { name: 'an unknown backend', text: 'state:\n  backend: s3\n', code: 'config-value', line: 2, column: 12, says: 'local or postgres, not s3' },
    { name: 'an unknown setting', text: 'state:\n  backend: postgres\n  pool: 5\n', code: 'config-key', line: 3, column: 3, says: 'state has no setting pool' },
    { name: 'an unknown section', text: 'backend: postgres\n', code: 'config-key', line: 1, column: 1, says: 'has no setting backend' },
    { name: 'a schema that is not a name', text: 'state:\n  backend: postgres\n  schema: "a; drop"\n', code: 'config-value', line: 3, column: 11, says: 'letters, digits and _' },
    { name: 'broken YAML', text: 'state:\n  backend: [postgres\n', code: 'config-yaml', line: 3, column: 1, says: '' },
  ])('refuses $name at its line and column', ({ text, code, line, column, says }) => {
    writeFileSync(join(dir, 'adsctl.yaml'), text);
    const read = readStateConfig(dir);
    expect(read.config).toBeUndefined();
    expect(read.diagnostics[0]).toMatchObject({ severity: 'error', code, range: { start: { line, column } } });
    expect(read.diagnostics[0]?.message).toContain(says);
    expect(read.diagnostics[0]?.range?.file).toMatch(/adsctl\.yaml$/);
  });
});
