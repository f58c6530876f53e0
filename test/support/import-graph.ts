/**
 * The import graph of the sources, and the three checks the layering test makes on it: imports
 * against the stage order, cycles between files, and exports nothing imports. Each file is read by
 * `scanModule` (module-scan.ts); every relative specifier is resolved to a file, a `.js` specifier
 * to its `.ts` source and a `dist/` path to `src/`. Everything here works on an in-memory map of
 * files, so the checks run on small fixtures too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { scanModule, type ModuleImport, type ModuleInfo } from './module-scan.js';

// ---------------------------------------------------------------------------------------------
// The graph

/** A file's import resolved to a file of the graph. */
export interface Edge {
  from: string;
  to: string;
  line: number;
  typeOnly: boolean;
  dynamic: boolean;
  names: ModuleImport['names'];
  exportedAs?: string[];
}

export interface ImportGraph {
  /** Repository-relative paths (posix) of every file read, with what it declares. */
  modules: Map<string, ModuleInfo>;
  /** Every relative import that resolved to a file of the graph. */
  edges: Edge[];
  /** Relative imports that resolved to no file: `file:line specifier`. */
  unresolved: string[];
}

/**
 * The file a relative specifier names: a `.js` (`.mjs`, `.cjs`) specifier its `.ts` source, a path
 * into `dist/` the same path in `src/`, and the bundle's entry (`dist/bundle/main.js`,
 * scripts/bundle.mjs) the source it is built from. Bare specifiers (packages, `node:`) name no file.
 */
export function resolveSpecifier(from: string, specifier: string, exists: (path: string) => boolean): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  let path = posix.normalize(posix.join(posix.dirname(from), specifier));
  if (path === 'dist/bundle/main.js') path = 'src/cli/main.js';
  else if (path.startsWith('dist/')) path = `src/${path.slice('dist/'.length)}`;
  const candidates = [path];
  for (const [js, ts] of [['.js', '.ts'], ['.mjs', '.mts'], ['.cjs', '.cts']] as const) {
    if (path.endsWith(js)) candidates.unshift(path.slice(0, -js.length) + ts);
  }
  if (!/\.[cm]?[jt]s$/.test(path)) candidates.push(`${path}.ts`, `${path}/index.ts`);
  return candidates.find(exists);
}

/** The import graph of the given files (path → source text). */
export function buildImportGraph(files: ReadonlyMap<string, string>): ImportGraph {
  const modules = new Map<string, ModuleInfo>();
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const [path, text] of files) {
    try {
      modules.set(path, scanModule(text));
    } catch (error) {
      throw new Error(`${path}: ${(error as Error).message}`);
    }
  }
  for (const [from, info] of modules) {
    for (const imp of info.imports) {
      if (!imp.specifier.startsWith('.')) continue;
      const to = resolveSpecifier(from, imp.specifier, (p) => files.has(p));
      if (to === undefined) {
        unresolved.push(`${from}:${imp.line} ${imp.specifier}`);
        continue;
      }
      edges.push({
        from,
        to,
        line: imp.line,
        typeOnly: imp.typeOnly,
        dynamic: imp.dynamic,
        names: imp.names,
        ...(imp.exportedAs === undefined ? {} : { exportedAs: imp.exportedAs }),
      });
    }
  }
  return { modules, edges, unresolved };
}

/** Source files under the given folders of a repository (`.ts`, `.mts`, `.js`, `.mjs`), path → text. */
export function readSources(root: string, folders: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (/\.(m?ts|m?js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        files.set(path, readFileSync(join(root, path), 'utf8'));
      }
    }
  };
  for (const folder of folders) walk(folder);
  return files;
}

// ---------------------------------------------------------------------------------------------
// Rule 1: the stage order

/**
 * One row of the stage table: the folders of `src/` at one tier. A folder imports only folders of
 * a lower tier (and itself); folders of one tier do not import each other.
 */
export interface StageRow {
  tier: number;
  folders: readonly string[];
  why: string;
}

/** An import the rules refuse that is allowed until the restructuring it waits for lands. */
export interface KnownException {
  from: string;
  to: string;
  why: string;
}

export interface Finding {
  file: string;
  line: number;
  rule: string;
  message: string;
}

export interface LayeringRules {
  stages: readonly StageRow[];
  /** The one folder nothing imports (the top of the table). */
  top: string;
  /** Folders that import nothing outside themselves; only `top` imports them. */
  isolated: readonly string[];
  /**
   * What `top` may import other than types (a type-only import may come from any folder below
   * it): whole folders, and single files of other folders, each with its reason.
   */
  topImports?: { folders: readonly string[]; files: readonly AllowedFile[] };
}

/** One file outside the folders `top` imports whole that it may import, and why. */
export interface AllowedFile {
  file: string;
  why: string;
}

/** The folder of `src/` a file belongs to: the longest folder of the rules that holds it. */
export function unitOf(file: string, rules: LayeringRules): string | undefined {
  const folders = [...rules.stages.flatMap((s) => s.folders), ...rules.isolated].sort((a, b) => b.length - a.length);
  return folders.find((f) => file.startsWith(`src/${f}/`));
}

/** Imports between files of `src/` that break the stage order; known exceptions are left out and returned apart. */
export function checkLayering(
  graph: ImportGraph,
  rules: LayeringRules,
  exceptions: readonly KnownException[] = [],
): { violations: Finding[]; excused: Finding[]; staleExceptions: KnownException[] } {
  const tier = new Map<string, number>();
  for (const row of rules.stages) for (const folder of row.folders) tier.set(folder, row.tier);
  const violations: Finding[] = [];
  const excused: Finding[] = [];
  const used = new Set<KnownException>();
  for (const file of graph.modules.keys()) {
    if (file.startsWith('src/') && unitOf(file, rules) === undefined) {
      violations.push({ file, line: 1, rule: 'stage table', message: `${file} is in no folder of the stage table` });
    }
  }
  for (const edge of graph.edges) {
    if (!edge.from.startsWith('src/') || !edge.to.startsWith('src/')) continue;
    const from = unitOf(edge.from, rules);
    const to = unitOf(edge.to, rules);
    if (from === undefined || to === undefined || from === to) continue;
    let message: string | undefined;
    let rule = '';
    if (to === rules.top) {
      rule = `nothing imports ${rules.top}/`;
      message = `${from}/ imports ${rules.top}/`;
    } else if (rules.isolated.includes(from)) {
      rule = `${from}/ imports nothing outside itself`;
      message = `${from}/ imports ${to}/`;
    } else if (rules.isolated.includes(to) && from !== rules.top) {
      rule = `only ${rules.top}/ imports ${to}/`;
      message = `${from}/ imports ${to}/`;
    } else if (from === rules.top && rules.topImports !== undefined && !edge.typeOnly && !rules.topImports.folders.includes(to) && !rules.topImports.files.some((f) => f.file === edge.to)) {
      rule = `${rules.top}/ imports only ${rules.topImports.folders.map((f) => `${f}/`).join(', ')} and the files allowed by name, types aside`;
      message = `${rules.top}/ imports ${edge.to.slice('src/'.length)} directly: move that work into engine/`;
    } else if (!rules.isolated.includes(to) && tier.get(to)! >= tier.get(from)!) {
      rule = 'a stage imports only the stages before it';
      message = tier.get(to) === tier.get(from)
        ? `${from}/ and ${to}/ sit at the same tier ${tier.get(from)} and do not import each other`
        : `${from}/ (tier ${tier.get(from)}) imports ${to}/ (tier ${tier.get(to)}), a later stage`;
    }
    if (message === undefined) continue;
    const finding: Finding = { file: edge.from, line: edge.line, rule, message: `${message}: ${edge.from}:${edge.line} → ${edge.to}` };
    const exception = exceptions.find((e) => e.from === edge.from && e.to === edge.to);
    if (exception === undefined) violations.push(finding);
    else {
      used.add(exception);
      excused.push(finding);
    }
  }
  return { violations, excused, staleExceptions: exceptions.filter((e) => !used.has(e)) };
}

// ---------------------------------------------------------------------------------------------
// Rule 2: no cycles

/** One import cycle: its files in order, the first repeated at the end, and the line of each import. */
export interface Cycle {
  files: string[];
  /** `file:line` of each import along the cycle. */
  imports: string[];
}

/**
 * The import cycles between files, type-only and dynamic imports included: one cycle through each
 * strongly connected component (Tarjan's algorithm, iterative), starting at its smallest path.
 */
export function findImportCycles(graph: ImportGraph, filter: (edge: Edge) => boolean = () => true): Cycle[] {
  const out = new Map<string, Edge[]>();
  for (const edge of graph.edges) {
    if (!filter(edge)) continue;
    const list = out.get(edge.from) ?? [];
    list.push(edge);
    out.set(edge.from, list);
  }
  const nodes = [...graph.modules.keys()].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = out.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!.to;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        for (;;) {
          const n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
          if (n === frame.node) break;
        }
        const selfLoop = component.length === 1 && edges.some((e) => e.to === frame.node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    // the shortest way from start back to itself, within the component (breadth first)
    const via = new Map<string, Edge>();
    const queue = [start];
    let closing: Edge | undefined;
    for (let q = 0; q < queue.length && closing === undefined; q++) {
      for (const edge of out.get(queue[q]!) ?? []) {
        if (!members.has(edge.to)) continue;
        if (edge.to === start) {
          closing = edge;
          break;
        }
        if (!via.has(edge.to)) {
          via.set(edge.to, edge);
          queue.push(edge.to);
        }
      }
    }
    const path: Edge[] = [closing!];
    while (path[0]!.from !== start) path.unshift(via.get(path[0]!.from)!);
    return { files: [start, ...path.map((e) => e.to)], imports: path.map((e) => `${e.from}:${e.line}`) };
  }).sort((a, b) => a.files[0]!.localeCompare(b.files[0]!));
}

/** Whether `to` can be reached from `from` along the edges the filter keeps (an edge to → from then closes a cycle). */
export function reaches(graph: ImportGraph, from: string, to: string, filter: (edge: Edge) => boolean = () => true): boolean {
  const seen = new Set([from]);
  const queue = [from];
  for (let q = 0; q < queue.length; q++) {
    for (const edge of graph.edges) {
      if (edge.from !== queue[q] || !filter(edge) || seen.has(edge.to)) continue;
      if (edge.to === to) return true;
      seen.add(edge.to);
      queue.push(edge.to);
    }
  }
  return from === to;
}

// ---------------------------------------------------------------------------------------------
// Rule 3: no dead exports

export interface DeadExportOptions {
  /** Files whose exports are used from outside the repository (the CLI's entry point). */
  roots: readonly string[];
  /** Files whose exports are not checked (generated from schemas). */
  exempt: (file: string) => boolean;
  /** Files whose exports are checked (`src/`). */
  checked: (file: string) => boolean;
}

/**
 * The exported names of the checked files that no file of the graph imports: `file:line name`.
 * A name counts as imported when a file imports it by name, through a namespace import (or a
 * dynamic import whose names cannot be told), or through a re-export of a file that imports it in
 * turn: `export { a } from` passes a use of a on, `export * from` passes on a use of any name the
 * re-exporting file does not declare itself.
 */
export function findDeadExports(graph: ImportGraph, options: DeadExportOptions): string[] {
  const own = new Map<string, Map<string, number>>();
  const namedReexports = new Map<string, Map<string, { to: string; name: string }>>();
  const starReexports = new Map<string, string[]>();
  for (const [file, info] of graph.modules) {
    own.set(file, new Map(info.exports.map((e) => [e.name, e.line])));
    namedReexports.set(file, new Map());
    starReexports.set(file, []);
  }
  for (const edge of graph.edges) {
    if (edge.names === 're-export-all') starReexports.get(edge.from)!.push(edge.to);
    else if (edge.exportedAs !== undefined && Array.isArray(edge.names)) {
      edge.names.forEach((name, i) => namedReexports.get(edge.from)!.set(edge.exportedAs![i]!, { to: edge.to, name }));
    }
  }
  const exportedNames = (file: string, seen = new Set<string>()): Set<string> => {
    const names = new Set<string>([...own.get(file)!.keys(), ...namedReexports.get(file)!.keys()]);
    if (seen.has(file)) return names;
    seen.add(file);
    for (const to of starReexports.get(file)!) for (const n of exportedNames(to, seen)) if (n !== 'default') names.add(n);
    return names;
  };
  const used = new Set<string>();
  const key = (file: string, name: string): string => `${file}\0${name}`;
  const use = (file: string, name: string, seen = new Set<string>()): void => {
    if (seen.has(file)) return;
    seen.add(file);
    if (own.get(file)!.has(name)) {
      used.add(key(file, name));
      return;
    }
    const named = namedReexports.get(file)!.get(name);
    if (named !== undefined) {
      used.add(key(file, name));
      use(named.to, named.name);
      return;
    }
    for (const to of starReexports.get(file)!) use(to, name, seen);
  };
  for (const edge of graph.edges) {
    if (edge.names === 're-export-all') continue;
    if (edge.names === '*') for (const name of exportedNames(edge.to)) use(edge.to, name);
    else if (edge.exportedAs === undefined) for (const name of edge.names) use(edge.to, name);
  }
  for (const root of options.roots) {
    if (graph.modules.has(root)) for (const name of exportedNames(root)) use(root, name);
  }
  const dead: string[] = [];
  for (const [file, info] of graph.modules) {
    if (!options.checked(file) || options.exempt(file)) continue;
    for (const e of info.exports) if (!used.has(key(file, e.name))) dead.push(`${file}:${e.line} ${e.name}`);
    for (const [name] of namedReexports.get(file)!) {
      if (!used.has(key(file, name))) dead.push(`${file}:${graph.edges.find((x) => x.from === file && x.exportedAs?.includes(name))!.line} ${name}`);
    }
  }
  return dead.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}
