/**
 * The layering of `src/` as docs/architecture.md ("Stages") states it, checked on the import
 * graph: a stage imports only `diag/`, `kinds/` and the stages before it; nothing imports `cli/`;
 * the emulator imports nothing outside itself. Also: no import cycle between files (type-only and
 * dynamic imports included), and no export that nothing imports.
 */
import { describe, expect, it } from 'vitest';
import {
  buildImportGraph,
  checkLayering,
  findDeadExports,
  findImportCycles,
  reaches,
  readSources,
  type Edge,
  type ImportGraph,
  type KnownException,
  type LayeringRules,
  type StageRow,
} from '../support/import-graph.js';

/**
 * The stage order. A folder of `src/` imports only folders of a lower tier (and itself); folders
 * of one tier do not import each other. `diag/` is the bottom; the libraries of tier 1 know no
 * stage; `kinds/` is what every stage reads its kinds from; then the stages in the order data
 * flows (docs/architecture.md): manifest → live → diff → plan → render | apply, with `cli/` on
 * top. The most specific folder holding a file decides (`manifest/generated` before `manifest`).
 */
const STAGES: readonly StageRow[] = [
  { tier: 0, folders: ['diag', 'service', 'clock', 'yaml'], why: 'diagnostics as values; the service\'s limits, one table every stage reads; the run\'s clock; the yaml package, loaded when first needed; none imports anything' },
  {
    tier: 1,
    folders: ['graph', 'schema', 'api', 'members/sets', 'state', 'manifest/generated'],
    why: 'libraries that know no stage: the generic graph, JSON Schema validation, the HTTP client, member files and their digest sets (the library of members/), state/lock/journal files, and the types generated from schemas/manifest.schema.json',
  },
  { tier: 2, folders: ['kinds'], why: 'the descriptors: they read and write through api/, type their fields with the generated manifest types, order kinds with graph/' },
  { tier: 3, folders: ['manifest'], why: 'files → DesiredState' },
  { tier: 4, folders: ['live'], why: 'refresh: → LiveAccount' },
  { tier: 5, folders: ['diff', 'members'], why: 'the diff; memberships: the plan\'s reading of member files against the live account, the members last uploaded, apply\'s sync (given to the members descriptors through their write context)' },
  { tier: 6, folders: ['plan'], why: 'changes → Plan' },
  { tier: 7, folders: ['render', 'apply', 'generate', 'guardrails'], why: 'the plan shown, the plan carried out, manifests written from live accounts, the plan held to the guardrails of adsctl.yaml; none imports another, so only cli/ imports render/, generate/ reads what the engine reads but never applies, and what guardrails/ finds travels in the plan' },
  { tier: 8, folders: ['engine'], why: 'the runs themselves: open the accounts, plan, apply, import, check a saved plan; plain data in and out, never the process or its streams' },
  { tier: 9, folders: ['cli'], why: 'argv → exit code; nothing imports it' },
];

/**
 * The engine boundary (docs/architecture.md, "The engine apart from the commands"): `cli/` turns
 * argv into a call of the engine and its result into text and an exit code, so besides types it
 * imports only the engine, the renderers, diagnostics and the emulator it may embed, and the few
 * files below that set a run up before the engine is called. Whatever else it needs (a plan file,
 * a state edit, a kind's name) it asks the engine for.
 */
const CLI_IMPORTS: NonNullable<LayeringRules['topImports']> = {
  folders: ['engine', 'render', 'diag', 'emulator'],
  files: [
    { file: 'src/manifest/load.ts', why: 'the manifests the user named, loaded (and their diagnostics printed) before the engine is called' },
    { file: 'src/manifest/files.ts', why: 'the loader\'s reading of a path: the manifest files it names, whose configuration roots keep the state' },
    { file: 'src/manifest/address.ts', why: 'addresses typed on the command line (--target, import, state mv), parsed once where they are typed' },
    { file: 'src/api/endpoint-choice.ts', why: 'endpoint set-up: which endpoint a command talks to, from --endpoint, ADSCTL_ENDPOINT and the manifests' },
    { file: 'src/api/endpoints.ts', why: 'endpoint set-up: the endpoint names and URLs, and the embedded emulator the command line opens' },
    { file: 'src/state/config-file.ts', why: 'store set-up: the file that marks a configuration root, where its state is kept' },
    { file: 'src/state/location.ts', why: 'store set-up: the state and cache directories of a configuration root' },
    { file: 'src/state/config.ts', why: 'store set-up: the backend a configuration root\'s adsctl.yaml names' },
    { file: 'src/state/local-store.ts', why: 'store set-up: the local backend opened for a root' },
    { file: 'src/state/postgres/store.ts', why: 'store set-up: the PostgreSQL backend opened for a root that names it (loaded only then)' },
    { file: 'src/state/lock.ts', why: 'store set-up: the locks this process holds, released when it ends early' },
    { file: 'src/state/local-directory.ts', why: 'store set-up: a state directory that cannot be used, said before the embedded emulator writes there' },
    { file: 'src/clock/clock.ts', why: 'run set-up: the run\'s clock, from ADSCTL_CLOCK, one of the run\'s options' },
  ],
};

const RULES: LayeringRules = { stages: STAGES, top: 'cli', isolated: ['emulator'], topImports: CLI_IMPORTS };

/**
 * Imports the rules refuse that are let through, each with its reason: none. Each entry would be
 * one import, importing file → imported file; an entry that no longer matches a refused import or
 * closes no cycle fails the test. Keep it empty: move the code instead.
 */
const KNOWN_EXCEPTIONS: readonly KnownException[] = [];

/** Files whose exports are used from outside the repository: the CLI's entry point (bin/adsctl.js loads it from dist/). */
const ROOTS = ['src/cli/main.ts'];

/** Generated from schemas/ by scripts/: every type of the schema, used or not. */
const GENERATED = (file: string): boolean => /^src\/.*\/generated\//.test(file);

const cycleEdges = (exceptions: readonly KnownException[]) => (edge: Edge): boolean =>
  !exceptions.some((e) => e.from === edge.from && e.to === edge.to);

/** Every problem the three rules find, one line each, naming the file, the line and the rule. */
function problems(graph: ImportGraph, exceptions: readonly KnownException[], roots: readonly string[] = ROOTS): string[] {
  const src = (edge: Edge): boolean => edge.from.startsWith('src/') && edge.to.startsWith('src/');
  const out: string[] = graph.unresolved.map((u) => `${u}: an import that names no file`);
  const layering = checkLayering(graph, RULES, exceptions);
  for (const v of layering.violations) out.push(`${v.file}:${v.line}: ${v.rule} (${v.message})`);
  for (const cycle of findImportCycles(graph, (e) => src(e) && cycleEdges(exceptions)(e))) {
    out.push(`${cycle.imports[0]}: an import cycle: ${cycle.files.join(' → ')} (imports at ${cycle.imports.join(', ')})`);
  }
  // an exception is stale when its import is gone, or neither breaks the layering nor closes a cycle
  for (const e of exceptions) {
    const present = graph.edges.some((x) => x.from === e.from && x.to === e.to);
    const layered = layering.excused.some((f) => f.file === e.from && f.message.endsWith(`→ ${e.to}`));
    const closesCycle = present && reaches(graph, e.to, e.from, src);
    if (!layered && !closesCycle) out.push(`${e.from}: the known exception → ${e.to} no longer occurs; remove it from KNOWN_EXCEPTIONS`);
  }
  for (const dead of findDeadExports(graph, { roots, exempt: GENERATED, checked: (f) => f.startsWith('src/') })) {
    out.push(`${dead.replace(' ', ': an export nothing imports: ')}`);
  }
  return out;
}

describe('the layering of src/', () => {
  it('holds on the tree: stage order, no cycles, no dead exports', () => {
    const files = readSources(process.cwd(), ['src', 'test', 'bench', 'scripts', 'bin']);
    const graph = buildImportGraph(files);
    expect(graph.modules.size).toBeGreaterThan(300);
    expect(problems(graph, KNOWN_EXCEPTIONS)).toEqual([]);
  });

  it('places every folder of src/ in the stage table once', () => {
    const folders = [...STAGES.flatMap((s) => s.folders), ...RULES.isolated];
    expect(new Set(folders).size).toBe(folders.length);
    const files = readSources(process.cwd(), ['src']);
    const top = new Set([...files.keys()].map((f) => f.split('/')[1]!));
    for (const folder of top) expect(folders).toContain(folder);
  });
});

describe('the checker', () => {
  /** A small tree of `src/` (and `test/`) files; `bin` stands in for an entry point. */
  const tree = (files: Record<string, string>): ImportGraph => buildImportGraph(new Map(Object.entries(files)));
  const clean = {
    'src/diag/d.ts': 'export const d = 1;\n',
    'src/kinds/k.ts': "import { d } from '../diag/d.js';\nexport const k = d;\n",
    'src/plan/p.ts': "import { k } from '../kinds/k.js';\nexport function plan() { return k; }\n",
    'src/engine/e.ts': "import { plan } from '../plan/p.js';\nexport const runPlan = () => plan();\n",
    'src/cli/main.ts': "import { runPlan } from '../engine/e.js';\nexport const run = () => runPlan();\n",
  };
  const cliRule = 'cli/ imports only engine/, render/, diag/, emulator/ and the files allowed by name, types aside';
  const rows: Array<{ name: string; files: Record<string, string>; exceptions?: KnownException[]; problems: string[] }> = [
    { name: 'a clean tree', files: clean, problems: [] },
    {
      name: 'an earlier stage imports a later one',
      files: { ...clean, 'src/kinds/k.ts': "import { d } from '../diag/d.js';\nimport type { plan } from '../plan/p.js';\nexport const k: typeof plan | number = d;\n" },
      problems: [
        'src/kinds/k.ts:2: a stage imports only the stages before it (kinds/ (tier 2) imports plan/ (tier 6), a later stage: src/kinds/k.ts:2 → src/plan/p.ts)',
        'src/kinds/k.ts:2: an import cycle: src/kinds/k.ts → src/plan/p.ts → src/kinds/k.ts (imports at src/kinds/k.ts:2, src/plan/p.ts:1)',
      ],
    },
    {
      name: 'the same import, a known exception',
      files: { ...clean, 'src/kinds/k.ts': "import { d } from '../diag/d.js';\nexport const k = d;\nvoid import('../plan/p.js');\n" },
      exceptions: [{ from: 'src/kinds/k.ts', to: 'src/plan/p.ts', why: 'test' }],
      problems: [],
    },
    {
      name: 'a stale known exception',
      files: clean,
      exceptions: [{ from: 'src/kinds/k.ts', to: 'src/plan/p.ts', why: 'test' }],
      problems: ['src/kinds/k.ts: the known exception → src/plan/p.ts no longer occurs; remove it from KNOWN_EXCEPTIONS'],
    },
    {
      name: 'siblings of one tier',
      files: { ...clean, 'src/render/r.ts': "import { a } from '../apply/a.js';\nexport const r = a;\n", 'src/apply/a.ts': 'export const a = 1;\n', 'test/r.test.ts': "import { r } from '../src/render/r.js';\nr;\n" },
      problems: ['src/render/r.ts:1: a stage imports only the stages before it (render/ and apply/ sit at the same tier 7 and do not import each other: src/render/r.ts:1 → src/apply/a.ts)'],
    },
    {
      name: 'a stage imports cli/',
      files: { ...clean, 'src/plan/p.ts': "import type { run } from '../cli/main.js';\nimport { k } from '../kinds/k.js';\nexport function plan(): ReturnType<typeof run> | number { return k; }\n" },
      problems: [
        'src/plan/p.ts:1: nothing imports cli/ (plan/ imports cli/: src/plan/p.ts:1 → src/cli/main.ts)',
        'src/cli/main.ts:1: an import cycle: src/cli/main.ts → src/engine/e.ts → src/plan/p.ts → src/cli/main.ts (imports at src/cli/main.ts:1, src/engine/e.ts:1, src/plan/p.ts:1)',
      ],
    },
    {
      name: 'the emulator imports outside itself',
      files: { ...clean, 'src/emulator/e.ts': "// import { k } from '../kinds/nope.js'\nconst s = \"import '../plan/p.js'\";\nexport const e = async () => (await import('../diag/d.js')).d + s;\n", 'src/cli/main.ts': "import { runPlan } from '../engine/e.js';\nimport { e } from '../emulator/e.js';\nexport const run = () => [runPlan(), e()];\n" },
      problems: ['src/emulator/e.ts:3: emulator/ imports nothing outside itself (emulator/ imports diag/: src/emulator/e.ts:3 → src/diag/d.ts)'],
    },
    {
      name: 'a stage loads the emulator',
      files: { ...clean, 'src/emulator/e.ts': 'export const e = 1;\n', 'src/plan/p.ts': "import { k } from '../kinds/k.js';\nexport async function plan() { return k + (await import('../emulator/e.js')).e; }\n" },
      problems: ['src/plan/p.ts:2: only cli/ imports emulator/ (plan/ imports emulator/: src/plan/p.ts:2 → src/emulator/e.ts)'],
    },
    {
      name: 'cli/ imports plan/ directly',
      files: { ...clean, 'src/cli/main.ts': "import { runPlan } from '../engine/e.js';\nimport { plan } from '../plan/p.js';\nexport const run = () => [runPlan(), plan()];\n" },
      problems: [`src/cli/main.ts:2: ${cliRule} (cli/ imports plan/p.ts directly: move that work into engine/: src/cli/main.ts:2 → src/plan/p.ts)`],
    },
    {
      name: 'cli/ loads apply/ when a command runs',
      files: { ...clean, 'src/apply/a.ts': 'export const a = 1;\n', 'src/cli/main.ts': "import { runPlan } from '../engine/e.js';\nexport const run = async () => [runPlan(), (await import('../apply/a.js')).a];\n" },
      problems: [`src/cli/main.ts:2: ${cliRule} (cli/ imports apply/a.ts directly: move that work into engine/: src/cli/main.ts:2 → src/apply/a.ts)`],
    },
    {
      name: 'cli/ builds an API client itself',
      files: { ...clean, 'src/api/client.ts': 'export class ApiClient {}\n', 'src/cli/main.ts': "import { runPlan } from '../engine/e.js';\nimport { ApiClient } from '../api/client.js';\nexport const run = () => [runPlan(), new ApiClient()];\n" },
      problems: [`src/cli/main.ts:2: ${cliRule} (cli/ imports api/client.ts directly: move that work into engine/: src/cli/main.ts:2 → src/api/client.ts)`],
    },
    {
      name: 'cli/ imports types from any stage, and of another folder only the files allowed by name',
      files: {
        ...clean,
        'src/manifest/address.ts': 'export const parseAddress = (text: string) => text;\n',
        'src/manifest/money.ts': 'export const micros = (units: number) => units * 1e6;\n',
        'src/cli/main.ts': [
          "import { runPlan } from '../engine/e.js';",
          "import type { plan } from '../plan/p.js';",
          "import { parseAddress } from '../manifest/address.js';",
          "import { micros } from '../manifest/money.js';",
          "export const run = (): ReturnType<typeof plan> | number => runPlan() + parseAddress('a').length + micros(1);",
        ].join('\n'),
      },
      problems: [`src/cli/main.ts:4: ${cliRule} (cli/ imports manifest/money.ts directly: move that work into engine/: src/cli/main.ts:4 → src/manifest/money.ts)`],
    },
    {
      name: 'a type-only cycle within one stage',
      files: {
        ...clean,
        'src/plan/p.ts': "import { k } from '../kinds/k.js';\nimport type { Step } from './steps.js';\nexport function plan(): Step | number { return k; }\nexport type Plan = number;\n",
        'src/plan/steps.ts': "import type { Plan } from './p.js';\n\nexport type Step = Plan[];\n",
      },
      problems: ['src/plan/p.ts:2: an import cycle: src/plan/p.ts → src/plan/steps.ts → src/plan/p.ts (imports at src/plan/p.ts:2, src/plan/steps.ts:1)'],
    },
    {
      name: 'a dead export, and one used only through export * and a namespace',
      files: {
        ...clean,
        'src/diag/d.ts': 'export const d = 1;\nexport function unused() {}\nexport interface Shape { a: 1 }\n',
        'src/diag/index.ts': "export * from './d.js';\nexport { d as dee } from './d.js';\n",
        'test/t.test.ts': "import type { Shape } from '../src/diag/index.js';\nimport * as k from '../src/kinds/k.js';\nconst s: Shape = { a: 1 };\nk; s;\n",
      },
      problems: ['src/diag/d.ts:2: an export nothing imports: unused', 'src/diag/index.ts:2: an export nothing imports: dee'],
    },
  ];
  it.each(rows)('$name', ({ files, exceptions, problems: expected }) => {
    expect(problems(tree(files), exceptions ?? [], ['src/cli/main.ts'])).toEqual(expected);
  });

  it('reads imports past comments, strings, templates and regular expressions', () => {
    const graph = tree({
      'src/diag/a.ts': [
        "/* import { x } from './gone.js' */",
        "const re = /['`]import('.\\/gone.js')/g; const half = 1 / 2 / 3;",
        "const t = `${'`'} import './gone.js' ${`${re}`} `;",
        "export { re, half, t };",
        "export const later = import('./b.js');",
        "import type { B } from './b.js'; export type C = B | typeof import('./c.js');",
        "export const obj = { import: 1, export: 2 }; obj.import;",
      ].join('\n'),
      'src/diag/b.ts': 'export type B = 1;\n',
      'src/diag/c.ts': 'export const c = 1;\n',
    });
    expect(graph.unresolved).toEqual([]);
    expect(graph.edges.map((e) => `${e.from}:${e.line} → ${e.to}${e.typeOnly ? ' type' : ''}${e.dynamic ? ' dynamic' : ''}`)).toEqual([
      'src/diag/a.ts:5 → src/diag/b.ts dynamic',
      'src/diag/a.ts:6 → src/diag/b.ts type',
      'src/diag/a.ts:6 → src/diag/c.ts type dynamic',
    ]);
    expect(graph.modules.get('src/diag/a.ts')!.exports.map((e) => e.name)).toEqual(['re', 'half', 't', 'later', 'C', 'obj']);
  });
});
