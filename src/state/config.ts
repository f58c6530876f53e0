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
 * must not hold a password. Mistakes are diagnostics at their line and column. The file is read
 * by config-file.ts, which also holds the other sections (`guardrails:`, src/guardrails/config.ts).
 */
import type { Node as YamlNode } from 'yaml';
import { yaml } from '../yaml/yaml.js';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import { CONFIG_FILE, readConfigFile } from './config-file.js';

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
  const read = readConfigFile(root);
  if (read.config === undefined) return { config: read.diagnostics.length > 0 ? undefined : LOCAL, diagnostics: read.diagnostics };
  const { at } = read.config;
  const diagnostics: Diagnostic[] = [];
  const state = read.config.sections.state?.value ?? undefined;
  if (state === undefined || state === null) return { config: LOCAL, diagnostics };
  if (!yaml().isMap(state)) return { config: undefined, diagnostics: [...diagnostics, errorAt('config', 'state: must be a mapping (backend, connection_string_env, schema)', at(state))] };
  const values = new Map<string, { value: string; range: SourceRange | undefined }>();
  for (const pair of state.items) {
    const key = yaml().isScalar(pair.key) ? String(pair.key.value) : '';
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
    if (!yaml().isScalar(value) || typeof value.value !== 'string' || value.value === '') {
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
