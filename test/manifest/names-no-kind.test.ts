/**
 * The manifest stage names no kind and no kind's field (docs/architecture.md, "Resource kinds"):
 * what a kind's section holds and how it is read comes from its descriptor in src/kinds/. The
 * check reads the string and template literals of src/manifest/*.ts (comments are left out: they
 * may name what they explain) and fails on one that is a registered kind, a collection or a field
 * of a kind.
 *
 * Not counted: the meta-fields every entry may carry (`id`, `lifecycle`, `depends_on`) and the
 * file's `import` section, which belong to the manifest format itself; the descriptors' own words
 * for address shapes (`targeting` is a shape as well as a collection); and the words of
 * `ALLOWED`, literals that only share their spelling with a field. The fields a kind reads itself
 * are read by its own reader in src/kinds/ (`ManifestFields.read`, `identity`), through the
 * `EntryContext` the manifest stage passes in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DESCRIPTORS } from '../../src/kinds/registry.js';

const dir = fileURLToPath(new URL('../../src/manifest/', import.meta.url));

/** Words of the manifest format itself, not of a kind. */
const META = new Set(['id', 'lifecycle', 'depends_on', 'import']);

/** The address shapes of the descriptors (src/kinds/descriptor.ts, `AddressShape`). */
const SHAPES = new Set(['name', 'single', 'value', 'targeting', 'feature', 'root']);

/** Literals of one file that share a spelling with a kind's field, and what they are. */
const ALLOWED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'money.ts': { format: 'the problem code of a text that is not a decimal amount' },
};

/**
 * The string literals and the text parts of the template literals of a TypeScript source, in
 * order; comments and regular expression literals are skipped.
 */
function literalsOf(src: string): string[] {
  const out: string[] = [];
  // for each open `${`, the depth of braces inside it
  const templates: number[] = [];
  let last = '';
  let i = 0;
  const readTemplateText = (from: number): number => {
    let j = from;
    let text = '';
    for (;;) {
      const c = src[j];
      if (c === undefined) break;
      if (c === '\\') {
        text += src[j + 1] ?? '';
        j += 2;
      } else if (c === '`') {
        j += 1;
        break;
      } else if (c === '$' && src[j + 1] === '{') {
        templates.push(0);
        j += 2;
        break;
      } else {
        text += c;
        j += 1;
      }
    }
    out.push(text);
    last = 'x';
    return j;
  };
  while (i < src.length) {
    const c = src[i] ?? '';
    const next = src[i + 1];
    if (c === '/' && next === '/') {
      const end = src.indexOf('\n', i);
      i = end < 0 ? src.length : end;
    } else if (c === '/' && next === '*') {
      i = src.indexOf('*/', i + 2) + 2;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let text = '';
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\') {
          text += src[j + 1] ?? '';
          j += 2;
        } else text += src[j++];
      }
      out.push(text);
      last = 'x';
      i = j + 1;
    } else if (c === '`') {
      i = readTemplateText(i + 1);
    } else if (c === '}' && templates.length > 0 && templates[templates.length - 1] === 0) {
      templates.pop();
      i = readTemplateText(i + 1);
    } else if (c === '/' && (last === '' || '(,=:[!&|?{};'.includes(last))) {
      // a regular expression literal
      let j = i + 1;
      let inClass = false;
      while (j < src.length && (src[j] !== '/' || inClass)) {
        if (src[j] === '\\') j += 1;
        else if (src[j] === '[') inClass = true;
        else if (src[j] === ']') inClass = false;
        j += 1;
      }
      last = 'x';
      i = j + 1;
    } else {
      if (templates.length > 0 && c === '{') templates[templates.length - 1] = (templates[templates.length - 1] ?? 0) + 1;
      if (templates.length > 0 && c === '}') templates[templates.length - 1] = (templates[templates.length - 1] ?? 0) - 1;
      if (!/\s/.test(c)) last = /[A-Za-z0-9_$)\]]/.test(c) ? 'x' : c;
      i += 1;
    }
  }
  return out;
}

/** Every registered kind, collection and kind field, less the words of the format and of the descriptors. */
function kindWords(): Set<string> {
  const words = new Set<string>();
  for (const d of DESCRIPTORS) {
    const m = d.manifest;
    const address = d.address;
    for (const w of [
      d.kind,
      address.collection,
      ...(address.key === 'value' ? [address.field] : []),
      ...(d.parentField === undefined ? [] : [d.parentField]),
      ...d.attributes.map((a) => a.field),
      ...d.computed,
      ...m.plain, ...m.ids, ...Object.keys(m.money), ...Object.values(m.money), ...m.times, ...Object.keys(m.refs), ...m.special, ...m.children,
    ]) {
      if (w !== '' && !META.has(w) && !SHAPES.has(w)) words.add(w);
    }
  }
  return words;
}

/** The kind words each file of src/manifest/ names in a literal (a literal `posts.` names `posts`), sorted. */
function namedByFile(files: ReadonlyMap<string, string>, words: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [file, src] of files) {
    const allowed = ALLOWED[file] ?? {};
    const named = new Set(literalsOf(src).map((l) => l.replace(/^\.|\.$/g, '')).filter((l) => words.has(l) && allowed[l] === undefined));
    if (named.size > 0) out.set(file, [...named].sort());
  }
  return out;
}

const sources = new Map(readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => [f, readFileSync(`${dir}${f}`, 'utf8')]));

describe('src/manifest/', () => {
  it('names no kind, collection or kind field', () => {
    expect(sources.size).toBeGreaterThan(10);
    expect(Object.fromEntries(namedByFile(sources, kindWords()))).toEqual({});
  });

  it('would be caught naming one: a reader that tests a kind by name, or reads a field itself', () => {
    const doctored = new Map([['resolve-extra.ts', "if (d.kind === 'promoted_post') key = map.byKey.get(`tweet_id`);\n// a comment may say campaign\nconst re = /'campaign'/;"]]);
    expect(Object.fromEntries(namedByFile(doctored, kindWords()))).toEqual({ 'resolve-extra.ts': ['promoted_post', 'tweet_id'] });
  });

  it('reads literals, not comments or regular expressions', () => {
    expect(literalsOf("const a = 'x'; // 'y'\n/* 'z' */ const b = `p${c ? `q${'r'}` : 's'}t`; const r = /'u'/g; const d = a / b / 'v';")).toEqual(['x', 'p', 'q', 'r', '', 's', 't', 'v']);
  });
});
