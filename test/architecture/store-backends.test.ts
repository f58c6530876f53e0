/**
 * No stage asks which state backend it has (docs/architecture.md, "State, journal and locks"):
 * what differs between backends is a method each implements (src/state/store.ts), never a test of
 * the store's class. A backend is a class of `src/` that implements `StateStore`; a file that
 * tests a value against one (`instanceof`, or its constructor) fails here. Constructing one where
 * a root's backend is opened is fine.
 */
import { describe, expect, it } from 'vitest';
import { readSources } from '../support/import-graph.js';

/** The classes of `files` that implement `StateStore`. */
function backends(files: ReadonlyMap<string, string>): string[] {
  const names: string[] = [];
  for (const text of files.values()) {
    for (const m of text.matchAll(/\bclass\s+(\w+)[^{]*\bimplements\b[^{]*\bStateStore\b/g)) names.push(m[1]!);
  }
  return names.sort();
}

/** Each place of `files` that tests a value against a backend class, as `file:line: text`. */
function backendTests(files: ReadonlyMap<string, string>): string[] {
  const names = backends(files).join('|');
  if (names === '') return [];
  const test = new RegExp(`\\binstanceof\\s+(${names})\\b|\\.constructor(\\.name)?\\s*[!=]==?\\s*['"]?(${names})\\b`);
  const out: string[] = [];
  for (const [file, text] of files) {
    text.split('\n').forEach((line, i) => {
      if (test.test(line)) out.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return out;
}

describe('the state backends', () => {
  const files = readSources(process.cwd(), ['src']);

  it('are the classes that implement StateStore', () => {
    expect(backends(files)).toEqual(['LocalStore', 'PostgresStore']);
  });

  it('are never told apart by their class in src/', () => {
    expect(backendTests(files)).toEqual([]);
  });

  it('finds a test of a backend class', () => {
    const fixture = new Map([
      ['src/state/a-store.ts', 'export class AStore implements StateStore {}\n'],
      ['src/apply/uses.ts', "const a = 1;\nif (store instanceof AStore) a;\nif (store.constructor.name === 'AStore') a;\nif (error instanceof Error) a;\n"],
    ]);
    expect(backendTests(fixture)).toEqual(['src/apply/uses.ts:2: if (store instanceof AStore) a;', "src/apply/uses.ts:3: if (store.constructor.name === 'AStore') a;"]);
  });
});
