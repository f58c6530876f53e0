/**
 * `adsctl.yaml`, the configuration of a root (docs/architecture.md, "State, journal and locks";
 * docs/manifest.md, "Guardrails"), read once as YAML with positions: its sections by name, and a
 * way to point at any node of it. The readers of its sections (`state:` in config.ts, `guardrails:`
 * in src/guardrails/config.ts) take their section from here, so the file is parsed and its
 * top-level keys are checked in one place.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Node as YamlNode } from 'yaml';
import { yaml } from '../yaml/yaml.js';
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';

/** The file's name, at the root of the manifests. */
export const CONFIG_FILE = 'adsctl.yaml';

/** The sections `adsctl.yaml` holds. */
const SECTIONS = ['state', 'guardrails'] as const;
type SectionName = (typeof SECTIONS)[number];

/** One section: its value node (null when the key has no value) and where its key is written. */
interface ConfigSection {
  value: YamlNode | null;
  key: SourceRange | undefined;
}

/** A root's `adsctl.yaml`, read; undefined `path` when the root has none. */
export interface ConfigFile {
  /** The file as shown to the user (relative to the working directory). */
  file: string;
  /** Its text, for the source lines under diagnostics. */
  text: string;
  sections: Partial<Record<SectionName, ConfigSection>>;
  /** Where a node of the file is written. */
  at: (node: { range?: [number, number, number] | null } | null | undefined) => SourceRange | undefined;
}

/**
 * Reads `adsctl.yaml` of `root`: undefined `config` when the root has none or it is empty, and the
 * file's problems (YAML errors, a top level that is not a mapping, an unknown section) as
 * diagnostics at their line and column.
 */
export function readConfigFile(root: string): { config: ConfigFile | undefined; diagnostics: Diagnostic[] } {
  const path = join(root, CONFIG_FILE);
  if (!existsSync(path)) return { config: undefined, diagnostics: [] };
  const file = relative(process.cwd(), path) || CONFIG_FILE;
  const text = readFileSync(path, 'utf8');
  const lineCounter = new (yaml().LineCounter)();
  const doc = yaml().parseDocument(text, { lineCounter, prettyErrors: false });
  const at: ConfigFile['at'] = (node) => {
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
  const config: ConfigFile = { file, text, sections: {}, at };
  const top = doc.contents as YamlNode | null;
  if (top === null) return { config, diagnostics };
  if (!yaml().isMap(top)) return { config: undefined, diagnostics: [errorAt('config', `${CONFIG_FILE} must be a mapping with sections ${SECTIONS.map((s) => `${s}:`).join(' and ')}`, at(top))] };
  for (const pair of top.items) {
    const key = yaml().isScalar(pair.key) ? String(pair.key.value) : '';
    const section = SECTIONS.find((s) => s === key);
    if (section === undefined) diagnostics.push(errorAt('config-key', `${CONFIG_FILE} has no setting ${key === '' ? 'with this key' : key}; it holds only ${SECTIONS.map((s) => `${s}:`).join(' and ')}`, at(pair.key as YamlNode)));
    else config.sections[section] = { value: (pair.value as YamlNode | null) ?? null, key: at(pair.key as YamlNode) };
  }
  return { config: diagnostics.length > 0 ? undefined : config, diagnostics };
}
