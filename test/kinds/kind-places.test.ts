/**
 * The places a kind must appear in, held together (docs/architecture.md, "Resource kinds", the
 * kind checklist): the registry, the manifest schema's sections, the plan schema's kind list, the
 * kind list of docs/manifest.md, and generate's write-back (or why a kind has none). And the
 * manifest stage must read every section the schema declares: a manifest with one entry in every
 * section (fixtures/every-section.yaml), loaded by the real loader, yields resources of the right
 * kind in each; a section that yields none is named.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResourceKind } from '../../src/kinds/kind.js';
import { DESCRIPTORS, KINDS } from '../../src/kinds/registry.js';
import type { DesiredResource } from '../../src/manifest/types.js';

type Schema = {
  description?: string;
  $ref?: string;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  properties?: Record<string, Schema>;
  $defs?: Record<string, Schema>;
  enum?: string[];
};

const read = (path: string): string => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
const manifestSchema = JSON.parse(read('../../schemas/manifest.schema.json')) as Schema;
const planSchema = JSON.parse(read('../../schemas/plan.schema.json')) as Schema;

/** Kinds that have no section of their own in a manifest (none so far); each with why. */
const NO_SECTION: ReadonlyMap<ResourceKind, string> = new Map();

/**
 * Kinds `adsctl generate` does not write back into a manifest (their descriptors have no
 * `generate`, src/kinds/write-back.ts), each with why; every other kind's descriptor says how it
 * is written.
 */
const NOT_GENERATED: ReadonlyMap<ResourceKind, string> = new Map([
  ['flexible_audience', 'the service lists flexible audiences with the custom audiences, whose write-back names each in the file as not generated yet'],
  ['audience_members', 'members are never read from the service: the audience is written without users, with a comment saying how to manage them'],
  ['do_not_reach_members', 'members are never read from the service: the list is written without users, with a comment saying how to manage them'],
  ['tailored_audience_permission', 'the same grants as an audience\'s permissions (sameRecordsAs), written there'],
]);

/**
 * A section of the manifest schema: the path of collections from the file's root
 * (`campaigns.line_items.targeting`; the root kind's is `account`) and the `$defs` entry its
 * entries are written as, when they have one (a permission's entry is an inline enum).
 */
interface Section {
  path: string;
  def?: string;
}

const refName = (s: Schema | boolean | undefined): string | undefined => (typeof s === 'object' && s.$ref !== undefined ? s.$ref.replace('#/$defs/', '') : undefined);

/**
 * Every section of the schema: a property whose description states its `Address:` (the schema's
 * convention for a collection of resources), at the top level or inside the entry of a section,
 * found by walking the schema from its root.
 */
function schemaSections(schema: Schema): Section[] {
  const out: Section[] = [];
  const walk = (node: Schema | undefined, prefix: string[]): void => {
    for (const [name, property] of Object.entries(node?.properties ?? {})) {
      if (property.description?.includes('Address:') !== true) continue;
      const def = refName(property) ?? refName(property.items) ?? refName(property.additionalProperties);
      const path = [...prefix, name];
      out.push({ path: path.join('.'), ...(def === undefined ? {} : { def }) });
      if (def !== undefined) walk(schema.$defs?.[def], path);
    }
  };
  walk(schema, []);
  return out;
}

const rootSection = DESCRIPTORS.find((d) => d.address.key === 'root')?.kind ?? '';

/** The section a resource sits in: its address's collections from the root (`account` for the root kind). */
const sectionOf = (r: DesiredResource): string => (r.address.steps.length === 0 ? rootSection : r.address.steps.map((s) => s.collection).join('.'));

/** The sections of `sections` in which `resources` hold nothing. */
function sectionsWithoutResources(sections: readonly Section[], resources: readonly DesiredResource[]): string[] {
  const found = new Set(resources.map(sectionOf));
  return sections.filter((s) => !found.has(s.path)).map((s) => s.path);
}

/** `section: kind` for each resource whose kind is not written as the section's `$defs` entry. */
function wrongKinds(sections: readonly Section[], resources: readonly DesiredResource[]): string[] {
  const defs = new Map(sections.map((s) => [s.path, s.def]));
  return resources.filter((r) => defs.get(sectionOf(r)) !== undefined && KINDS[r.kind].manifest.def !== defs.get(sectionOf(r))).map((r) => `${sectionOf(r)}: ${r.kind}`);
}

/** The section path of a kind, from its chain of parents. */
function kindSection(kind: ResourceKind): string {
  const d = KINDS[kind];
  if (d.parent === undefined) return rootSection;
  const parent = KINDS[d.parent];
  return parent.parent === undefined ? d.address.collection : `${kindSection(d.parent)}.${d.address.collection}`;
}

const fixture = read('fixtures/every-section.yaml');

type Loader = typeof import('../../src/manifest/load.js');

/** The resources of the fixture, loaded by `loader` with every file it names present. */
function loadFixture(loader: Loader): DesiredResource[] {
  const loaded = loader.loadManifestSources([{ file: 'every-section.yaml', text: fixture }], { fileExists: () => true, readFile: () => new Uint8Array([1, 2, 3]) });
  expect(loaded.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
  return loaded.value?.accounts[0]?.resources ?? [];
}

const sections = schemaSections(manifestSchema);

describe('every section of the manifest schema', () => {
  afterEach(() => {
    vi.doUnmock('../../src/kinds/registry.js');
    vi.resetModules();
  });

  it('is found by the walk of the schema, the nested ones included', () => {
    expect(sections.length).toBeGreaterThanOrEqual(DESCRIPTORS.length);
    expect(sections.map((s) => s.path)).toEqual(expect.arrayContaining([rootSection, 'campaigns.line_items.targeting', 'custom_audiences.users', 'do_not_reach.users']));
  });

  it('has an entry in the fixture, which the real loader reads into at least one resource of the section\'s kind', async () => {
    const resources = loadFixture(await import('../../src/manifest/load.js'));
    expect(sectionsWithoutResources(sections, resources)).toEqual([]);
    expect(wrongKinds(sections, resources)).toEqual([]);
    // and nothing is read outside a section the schema declares
    const declared = new Set(sections.map((s) => s.path));
    expect(resources.map(sectionOf).filter((s) => !declared.has(s))).toEqual([]);
  });

  it('is named when the loader reads nothing from it (a registry that forgot the collection)', async () => {
    vi.resetModules();
    vi.doMock('../../src/kinds/registry.js', async (importOriginal) => {
      const real = await importOriginal<typeof import('../../src/kinds/registry.js')>();
      const order = new Map(real.CHILD_ORDER);
      order.set('custom_audience', (order.get('custom_audience') ?? []).filter((c) => c !== 'permissions'));
      return { ...real, CHILD_ORDER: order };
    });
    const resources = loadFixture(await import('../../src/manifest/load.js'));
    expect(sectionsWithoutResources(sections, resources)).toEqual(['custom_audiences.permissions']);
  });

  it('is named when the schema declares a section the fixture and the loader do not know', async () => {
    const resources = loadFixture(await import('../../src/manifest/load.js'));
    const doctored = structuredClone(manifestSchema);
    doctored.properties = { ...doctored.properties, lookalikes: { description: 'Address: lookalikes.<name>.', type: 'object', additionalProperties: { $ref: '#/$defs/Media' } } as Schema };
    expect(sectionsWithoutResources(schemaSections(doctored), resources)).toEqual(['lookalikes']);
  });
});

describe('every kind of the registry', () => {
  const each = DESCRIPTORS.map((d) => [d.kind, d] as const);

  it.each(each)('%s has a section of the manifest schema written as its $defs entry, or says why not', (kind, d) => {
    if (NO_SECTION.has(kind)) return;
    expect(manifestSchema.$defs?.[d.manifest.def], `$defs.${d.manifest.def}`).toBeDefined();
    const section = sections.find((s) => s.path === kindSection(kind));
    expect(section, `section ${kindSection(kind)}`).toBeDefined();
    if (section?.def !== undefined) expect(section.def).toBe(d.manifest.def);
  });

  it.each(each)('%s is written back by generate, or says why not', (kind, d) => {
    if (NOT_GENERATED.has(kind)) {
      expect(d.generate, `${kind} is in NOT_GENERATED, yet its descriptor says how generate writes it: take it off the list`).toBeUndefined();
      return;
    }
    expect(d.generate, `${kind}: adsctl generate does not write it back; give its descriptor a generate part (src/kinds/write-back.ts), or add it to NOT_GENERATED with why`).toBeDefined();
    // generate reaches a kind through its parent's entry
    if (d.parent !== undefined) expect(KINDS[d.parent].generate, `${kind} is written under ${d.parent}, which generate does not write`).toBeDefined();
  });

  it('is exactly the kind list of the plan schema (written from kind.ts by scripts/generate-plan-kinds.mjs), in registry order', () => {
    const type = (planSchema.$defs?.['ResourceChange']?.properties?.['type'] ?? {}) as Schema;
    expect(type.enum).toEqual(DESCRIPTORS.map((d) => d.kind));
  });

  it('is exactly the kind list of docs/manifest.md, in registry order', () => {
    const line = read('../../docs/manifest.md').split('\n').find((l) => l.startsWith('Resource kinds ('));
    expect(line, 'the line "Resource kinds (...): `kind`, ..." of docs/manifest.md').toBeDefined();
    const listed = [...(line ?? '').slice((line ?? '').indexOf(':')).matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    expect(listed).toEqual(DESCRIPTORS.map((d) => d.kind));
  });
});
