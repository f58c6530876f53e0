/**
 * The repository's configuration of state: `adsctl.yaml` at the configuration root, beside the
 * manifests (docs/architecture.md, "State, journal and locks").
 *
 *   state:
 *     backend: postgres                          # or local, the default
 *     connection_string_env: ADSCTL_POSTGRES_URL  # the variable that holds it (this is the default)
 *     schema: adsctl                             # the schema of adsctl's tables (the default)
 *
 * The connection string itself comes from the environment, never from the file: a file in git
 * must not hold a password. Mistakes are diagnostics at their line and column.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';

export const CONFIG_FILE = 'adsctl.yaml';
const DEFAULT_CONNECTION_ENV = 'ADSCTL_POSTGRES_URL';
const DEFAULT_SCHEMA = 'adsctl';

/** The backend in force, and the PostgreSQL settings (also when local: `state migrate --from postgres` uses them). */
export interface StateConfig {
  backend: 'local' | 'postgres';
  connectionStringEnv: string;
  schema: string;
  /** Where the backend is named, for errors about it. */
  range?: SourceRange;
}

const LOCAL: StateConfig = { backend: 'local', connectionStringEnv: DEFAULT_CONNECTION_ENV, schema: DEFAULT_SCHEMA };

const SETTINGS = ['backend', 'connection_string_env', 'schema'];
/** Keys that would put the connection string itself in the file. */
const SECRET_KEYS = /^(connection_string|url|dsn|uri|password|conn_string|database_url)$/i;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The state configuration of a root; local when it has no adsctl.yaml. */
export function readStateConfig(root: string): { config: StateConfig | undefined; diagnostics: Diagnostic[] } {
  const path = join(root, CONFIG_FILE);
  if (!existsSync(path)) return { config: LOCAL, diagnostics: [] };
  const file = relative(process.cwd(), path) || CONFIG_FILE;
  const text = readFileSync(path, 'utf8');
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const at = (node: { range?: [number, number, number] | null } | null | undefined): SourceRange | undefined => {
    const r = node?.range;
    if (r === undefined || r === null) return undefined;
    const start = lineCounter.linePos(r[0]);
    const end = lineCounter.linePos(r[1]);
    return { file, start: { line: start.line, column: start.col, offset: r[0] }, end: { line: end.line, column: end.col, offset: r[1] } };
  };
  const diagnostics: Diagnostic[] = [];
  for (const error of doc.errors) {
    const start = lineCounter.linePos(error.pos[0]);
    diagnostics.push(errorAt('config-yaml', error.message.split('\n')[0]!, { file, start: { line: start.line, column: start.col, offset: error.pos[0] }, end: { line: start.line, column: start.col, offset: error.pos[0] } }));
  }
  if (diagnostics.length > 0) return { config: undefined, diagnostics };
  const top = doc.contents as YamlNode | null;
  if (top === null) return { config: LOCAL, diagnostics: [] };
  if (!isMap(top)) return { config: undefined, diagnostics: [errorAt('config', `${CONFIG_FILE} must be a mapping with a state: section`, at(top))] };
  let state: YamlNode | undefined;
  for (const pair of top.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key === 'state') state = pair.value as YamlNode;
    else diagnostics.push(errorAt('config-key', `${CONFIG_FILE} has no setting ${key === '' ? 'with this key' : key}; it holds only state:`, at(pair.key as YamlNode)));
  }
  if (state === undefined || state === null) return { config: diagnostics.length > 0 ? undefined : LOCAL, diagnostics };
  if (!isMap(state)) return { config: undefined, diagnostics: [...diagnostics, errorAt('config', 'state: must be a mapping (backend, connection_string_env, schema)', at(state))] };
  const values = new Map<string, { value: string; range: SourceRange | undefined }>();
  for (const pair of state.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const range = at(pair.key as YamlNode);
    if (SECRET_KEYS.test(key)) {
      diagnostics.push(errorAt('config-secret', `state.${key}: the connection string must not be written in ${CONFIG_FILE}, which is kept in git; put it in an environment variable and name that variable with connection_string_env (default ${DEFAULT_CONNECTION_ENV})`, range));
      continue;
    }
    if (!SETTINGS.includes(key)) {
      diagnostics.push(errorAt('config-key', `state has no setting ${key}; it has ${SETTINGS.join(', ')}`, range));
      continue;
    }
    const value = pair.value;
    if (!isScalar(value) || typeof value.value !== 'string' || value.value === '') {
      diagnostics.push(errorAt('config-value', `state.${key} must be a word`, at((value as YamlNode | null) ?? (pair.key as YamlNode))));
      continue;
    }
    values.set(key, { value: value.value, range: at(value) });
  }
  const backend = values.get('backend');
  if (backend !== undefined && backend.value !== 'local' && backend.value !== 'postgres') diagnostics.push(errorAt('config-value', `state.backend is local or postgres, not ${backend.value}`, backend.range));
  for (const name of ['connection_string_env', 'schema']) {
    const setting = values.get(name);
    if (setting === undefined) continue;
    if (name === 'connection_string_env' && /[:/@]/.test(setting.value)) {
      diagnostics.push(errorAt('config-secret', `state.connection_string_env names the environment variable that holds the connection string, not the string itself; never write the connection string in ${CONFIG_FILE}`, setting.range));
    } else if (!IDENTIFIER.test(setting.value)) diagnostics.push(errorAt('config-value', `state.${name} must be a name of letters, digits and _, not ${setting.value}`, setting.range));
  }
  if (diagnostics.length > 0) return { config: undefined, diagnostics };
  return {
    config: { backend: backend?.value === 'postgres' ? 'postgres' : 'local', connectionStringEnv: values.get('connection_string_env')?.value ?? DEFAULT_CONNECTION_ENV, schema: values.get('schema')?.value ?? DEFAULT_SCHEMA, ...(backend?.range === undefined ? {} : { range: backend.range }) },
    diagnostics,
  };
}
