/**
 * The manifest stage's entry: files → positioned YAML → schema validation → resources with
 * addresses, references, micros and source ranges → offline checks → the DesiredState. Every
 * problem in every file is reported at once, in file order; nothing touches the network.
 */
import { dirname } from 'node:path';
import { errorAt, hasErrors, sortDiagnostics, type Diagnostic, type Result } from '../diag/diagnostic.js';
import { validateWithSchema } from '../schema/validator.js';
import { COLLECTIONS, ROOT_KIND } from '../kinds/registry.js';
import { checkAccountRules } from './checks.js';
import { checkControlCharacters } from './control-characters.js';
import { readEndpoint } from './endpoint.js';
import { findMisplacedCollections } from './misplaced.js';
import { readMoved, readRemoved } from './moves.js';
import type { FileContext } from './context.js';
import { findManifestFiles } from './files.js';
import { asMap, documentLocator, plainValue, stringValue } from './nodes.js';
import { checkProjectFile, fileMissing, readProjectFileSync } from './project-file.js';
import { projectRoots } from './project-root.js';
import { readManifestSource } from './read-source.js';
import { checkCycles, resolveDependencies, resolveImports } from './references.js';
import { resolveResources } from './resolve.js';
import type { DesiredAccount, DesiredState } from './types.js';
import { parseManifestText } from './yaml-tree.js';

/** One manifest file's path (as shown in diagnostics) and text. */
export interface ManifestSource {
  file: string;
  text: string;
}

/** What loading may read besides the manifests. */
interface LoadOptions {
  /** Variables for `${env:NAME}`; defaults to none, so the CLI passes `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Whether a file referenced by a manifest (an audience's users file) exists, in place of the
   * file system's checks (project-file.ts), for callers that load text without its files.
   */
  fileExists?: (path: string) => boolean;
  /** The bytes of a file referenced by a manifest (a media file), in place of the file system's checked read. */
  readFile?: (path: string) => Uint8Array | undefined;
}

/**
 * How the files the manifest `file` names are checked and read: on the file system, only regular
 * files inside the manifest's project root within their kind's limit (project-file.ts); or
 * through the substitutes `options` gives.
 */
function namedFiles(file: string, options: LoadOptions, rootOf: (dir: string) => string): Pick<FileContext, 'checkFile' | 'readFile'> {
  const { fileExists, readFile } = options;
  return {
    checkFile:
      fileExists === undefined
        ? (path, shownAs, limit) => checkProjectFile({ path, shownAs, root: rootOf(dirname(file)), limit }).problem
        : (path, shownAs) => (fileExists(path) ? undefined : fileMissing({ shownAs })),
    readFile:
      readFile === undefined
        ? (path, shownAs, limit) => readProjectFileSync({ path, shownAs, root: rootOf(dirname(file)), limit })
        : (path, shownAs) => {
            const bytes = readFile(path);
            return bytes === undefined ? { problem: fileMissing({ shownAs }) } : { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
          },
  };
}

/** The desired state (when there are no errors), the diagnostics, and the text of every file read, for rendering them. */
interface LoadResult extends Result<DesiredState> {
  sources: Map<string, string>;
  files: string[];
}

function loadFile(source: ManifestSource, options: LoadOptions, rootOf: (dir: string) => string): { account?: DesiredAccount; diagnostics: Diagnostic[] } {
  const env = options.env ?? {};
  const parsed = parseManifestText(source.file, source.text, (name) => env[name]);
  const document = parsed.document;
  if (document.unreadable || document.root === undefined) return { diagnostics: parsed.diagnostics };
  const reported = new Set(parsed.diagnostics.map((d) => d.range?.start.offset));
  const withoutRepeats = (later: Diagnostic[]): Diagnostic[] => [...parsed.diagnostics, ...later.filter((d) => !reported.has(d.range?.start.offset))];
  const diagnostics: Diagnostic[] = [];
  const schema = validateWithSchema('manifest', plainValue(document.root), documentLocator(document));
  const root = asMap(document.root);
  // a collection indented too little gets one error of its own, in place of those within it
  const misplaced = root === undefined ? [] : findMisplacedCollections(root, schema.diagnostics, (start, end) => document.range(start, end));
  const within = (d: Diagnostic): boolean => misplaced.some((m) => d.range !== undefined && d.range.start.offset >= m.start && d.range.start.offset < m.end);
  diagnostics.push(...schema.diagnostics.filter((d) => !within(d)), ...misplaced.map((m) => m.diagnostic));
  for (const m of misplaced) schema.invalid.add(m.pointer);
  if (root === undefined) return { diagnostics: withoutRepeats(diagnostics) };
  const names = new Map<string, string[]>();
  for (const collection of COLLECTIONS.get(ROOT_KIND.kind)?.keys() ?? []) {
    names.set(collection, asMap(root.byKey.get(collection)?.value)?.entries.map((e) => e.key) ?? []);
  }
  const endpoint = readEndpoint(document, root, schema.invalid, diagnostics);
  const ctx: FileContext = {
    doc: document,
    invalid: schema.invalid,
    diagnostics,
    ...namedFiles(source.file, options, rootOf),
    resources: [],
    byAddress: new Map(),
    dependencies: [],
    importEntries: [],
    names,
    endpoint,
  };
  resolveResources(ctx, root);
  resolveDependencies(ctx);
  resolveImports(ctx, root);
  checkCycles(ctx);
  checkAccountRules(ctx, root);
  checkControlCharacters(ctx, root);
  const moved = readMoved(ctx, root);
  const removed = readRemoved(ctx, root);
  const accountId = ctx.resources.find((r) => r.kind === ROOT_KIND.kind)?.importId;
  const account: DesiredAccount = {
    file: source.file,
    key: accountId ?? source.file,
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(accountId === undefined ? {} : { accountId }),
    resources: ctx.resources,
    ...(stringValue(root.byKey.get('unmanaged')?.value) === 'ignore' ? { unmanaged: 'ignore' as const } : {}),
    ...(ctx.importEntries.length === 0 ? {} : { imports: ctx.importEntries }),
    ...(moved.length === 0 ? {} : { moved }),
    ...(removed.length === 0 ? {} : { removed }),
  };
  return { account, diagnostics: withoutRepeats(diagnostics) };
}

/**
 * Loads manifests given as text; the files they name are read from the file system, checked,
 * unless `options` gives substitutes.
 */
export function loadManifestSources(sources: readonly ManifestSource[], options: LoadOptions = {}, rootOf: (dir: string) => string = projectRoots()): LoadResult {
  const diagnostics: Diagnostic[] = [];
  const accounts: DesiredAccount[] = [];
  const byKey = new Map<string, DesiredAccount>();
  for (const source of sources) {
    const loaded = loadFile(source, options, rootOf);
    diagnostics.push(...loaded.diagnostics);
    const account = loaded.account;
    if (account === undefined) continue;
    const first = byKey.get(account.key);
    if (first !== undefined) {
      const here = account.resources.find((r) => r.kind === ROOT_KIND.kind);
      const there = first.resources.find((r) => r.kind === ROOT_KIND.kind);
      diagnostics.push(
        errorAt('duplicate-account', `account ${account.key} is already described by ${first.file}; one file describes one account`, here?.attributeSources['import'] ?? here?.source, there === undefined ? undefined : [
          { message: 'first described here', range: there.attributeSources['import'] ?? there.source },
        ]),
      );
      continue;
    }
    byKey.set(account.key, account);
    accounts.push(account);
  }
  const files = sources.map((s) => s.file);
  const sorted = sortDiagnostics(diagnostics, files);
  return {
    value: hasErrors(sorted) ? undefined : { accounts },
    diagnostics: sorted,
    sources: new Map(sources.map((s) => [s.file, s.text])),
    files,
  };
}

/**
 * Loads the manifest file at `path`, or every `*.yaml`/`*.yml` under the directory at `path`.
 * One file describes one account; a second file for the same account id is an error.
 */
export function loadManifests(path: string, options: LoadOptions = {}): LoadResult {
  const found = findManifestFiles(path);
  const sources: ManifestSource[] = [];
  const unreadable: Diagnostic[] = [];
  const shown = new Map<string, string>();
  const rootOf = projectRoots();
  for (const file of found.files) {
    const read = readManifestSource(file, rootOf(dirname(file)));
    if (read.text !== undefined) sources.push({ file, text: read.text });
    else {
      unreadable.push(read.diagnostic);
      if (read.shown !== undefined) shown.set(file, read.shown);
    }
  }
  const loaded = loadManifestSources(sources, options, rootOf);
  const diagnostics = [...found.diagnostics, ...sortDiagnostics([...unreadable, ...loaded.diagnostics], found.files)];
  const texts = new Map([...shown, ...loaded.sources]);
  return { ...loaded, value: hasErrors(diagnostics) ? undefined : loaded.value, diagnostics, sources: texts, files: found.files };
}
