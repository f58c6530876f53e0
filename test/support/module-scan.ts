/**
 * What one source file imports and exports, read without a compiler: the layering test's graph
 * (import-graph.ts) is built from it.
 *
 * The installed TypeScript (7, the native compiler) has no JavaScript compiler API
 * (`ts.createSourceFile`, `ts.preProcessFile`), so the sources are read by the small tokenizer
 * below. It knows what can hide an import: comments, string literals, template literals (with
 * nested `${…}`) and regular expression literals, told apart from a division by the token before
 * the slash. On top of the tokens it recognises import and export statements, dynamic `import('…')`
 * and `typeof import('…')`.
 */
// ---------------------------------------------------------------------------------------------
// Tokens

type TokenType = 'name' | 'string' | 'template' | 'number' | 'regex' | 'punct';

interface Token {
  type: TokenType;
  /** The identifier, the punctuator, or a string literal's value. */
  value: string;
  line: number;
}

/** Keywords after which a `/` starts a regular expression, not a division. */
const BEFORE_EXPRESSION = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else',
  'yield', 'await',
]);

const PUNCTUATORS = [
  '>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??=',
  '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '<<', '>>',
];

const isIdentStart = (c: string): boolean => /[A-Za-z_$\u0080-\uffff]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);

/** Splits TypeScript source into tokens, dropping comments and whitespace. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  /** For each open `{`: whether it opened a template substitution `${`. */
  const braces: boolean[] = [];

  const regexAllowed = (): boolean => {
    const prev = tokens[tokens.length - 1];
    if (prev === undefined) return true;
    if (prev.type === 'name') return BEFORE_EXPRESSION.has(prev.value);
    if (prev.type === 'punct') return prev.value !== ')' && prev.value !== ']' && prev.value !== '}';
    return false;
  };

  /** Reads a template literal's text from `i` (after the backtick or `}`) up to its end or `${`. */
  const readTemplate = (startLine: number): void => {
    while (i < text.length) {
      const c = text[i]!;
      if (c === '\\') {
        if (text[i + 1] === '\n') line++;
        i += 2;
      } else if (c === '`') {
        i++;
        tokens.push({ type: 'template', value: '', line: startLine });
        return;
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        braces.push(true);
        tokens.push({ type: 'template', value: '', line: startLine });
        tokens.push({ type: 'punct', value: '(', line }); // a substitution reads as a parenthesised expression
        return;
      } else {
        if (c === '\n') line++;
        i++;
      }
    }
    throw new Error(`unterminated template literal from line ${startLine}`);
  };

  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF' || c === '\u00A0' || c === '\u2028' || c === '\u2029') {
      i++;
    } else if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new Error(`unterminated comment from line ${line}`);
      for (let k = i; k < end; k++) if (text[k] === '\n') line++;
      i = end + 2;
    } else if (c === '"' || c === "'") {
      const startLine = line;
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length || text[i] === '\n') throw new Error(`unterminated string from line ${startLine}`);
        const d = text[i]!;
        if (d === c) break;
        if (d === '\\') {
          const e = text[i + 1];
          if (e === '\n') line++;
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e ?? '';
          i += 2;
        } else {
          value += d;
          i++;
        }
      }
      i++;
      tokens.push({ type: 'string', value, line: startLine });
    } else if (c === '`') {
      i++;
      readTemplate(line);
    } else if (c === '/' && regexAllowed()) {
      const startLine = line;
      let inClass = false;
      i++;
      for (;;) {
        if (i >= text.length || text[i] === '\n') throw new Error(`unterminated regular expression from line ${startLine}`);
        const d = text[i]!;
        if (d === '\\') i += 2;
        else {
          if (d === '[') inClass = true;
          else if (d === ']') inClass = false;
          else if (d === '/' && !inClass) break;
          i++;
        }
      }
      i++;
      while (i < text.length && isIdentPart(text[i]!)) i++; // flags
      tokens.push({ type: 'regex', value: '', line: startLine });
    } else if (isIdentStart(c) || c === '#' || (c === '\\' && next === 'u')) {
      const start = i;
      i++;
      while (i < text.length && (isIdentPart(text[i]!) || text[i] === '\\')) i++;
      tokens.push({ type: 'name', value: text.slice(start, i), line });
    } else if (/[0-9]/.test(c) || (c === '.' && next !== undefined && /[0-9]/.test(next))) {
      const start = i;
      i++;
      while (i < text.length && (/[0-9A-Za-z_.]/.test(text[i]!) || ((text[i] === '+' || text[i] === '-') && /[eE]/.test(text[i - 1]!) && !/^0[xX]/.test(text.slice(start, i))))) i++;
      tokens.push({ type: 'number', value: text.slice(start, i), line });
    } else if (c === '{') {
      braces.push(false);
      tokens.push({ type: 'punct', value: '{', line });
      i++;
    } else if (c === '}') {
      const template = braces.pop();
      i++;
      if (template === true) {
        tokens.push({ type: 'punct', value: ')', line });
        readTemplate(line);
      } else tokens.push({ type: 'punct', value: '}', line });
    } else {
      const p = PUNCTUATORS.find((q) => text.startsWith(q, i)) ?? c;
      tokens.push({ type: 'punct', value: p, line });
      i += p.length;
    }
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Imports and exports of one module

/** One module a file depends on, as written. */
export interface ModuleImport {
  specifier: string;
  line: number;
  /** `import type`, `export type … from`, an import whose every name is `type`, `typeof import(…)`. */
  typeOnly: boolean;
  /** A dynamic `import('…')`. */
  dynamic: boolean;
  /**
   * The names taken from the module: `'*'` for all of them (a namespace import, `export * as`, a
   * dynamic import whose names cannot be told), `'re-export-all'` for `export * from`.
   */
  names: string[] | '*' | 're-export-all';
  /** For `export { a as b } from`: the names this file exports in their place (b), aligned with names. */
  exportedAs?: string[];
}

/** One name a file declares and exports itself. */
export interface ModuleExport {
  name: string;
  line: number;
}

export interface ModuleInfo {
  imports: ModuleImport[];
  exports: ModuleExport[];
}

const DECLARATION_KEYWORDS = new Set(['function', 'class', 'interface', 'type', 'enum', 'namespace', 'module', 'const', 'let', 'var']);
const DECLARATION_MODIFIERS = new Set(['declare', 'async', 'abstract', 'default']);

/** The import and export statements of a module. */
export function scanModule(text: string): ModuleInfo {
  const t = tokenize(text);
  const imports: ModuleImport[] = [];
  const exports: ModuleExport[] = [];
  const at = (k: number): Token | undefined => t[k];
  const is = (k: number, value: string): boolean => {
    const token = t[k];
    return token !== undefined && (token.type === 'name' || token.type === 'punct') && token.value === value;
  };

  /** Reads `{ a, b as c, type d }` from k (at the brace); returns names, their aliases, whether all are types, and the end. */
  const readBraces = (k: number): { names: string[]; aliases: string[]; allTypes: boolean; end: number } => {
    const names: string[] = [];
    const aliases: string[] = [];
    let allTypes = true;
    k++;
    while (k < t.length && !is(k, '}')) {
      let typeOnly = false;
      if (is(k, 'type') && at(k + 1) !== undefined && !is(k + 1, ',') && !is(k + 1, '}') && !is(k + 1, 'as')) {
        typeOnly = true;
        k++;
      } else if (is(k, 'type') && is(k + 1, 'as') && at(k + 2)?.type === 'name' && !is(k + 3, ',') && !is(k + 3, '}')) {
        typeOnly = true; // `type as as x`, `type as x`: rare enough to read as a type
        k++;
      }
      const name = at(k)!.value;
      let alias = name;
      k++;
      if (is(k, 'as')) {
        alias = at(k + 1)!.value;
        k += 2;
      }
      names.push(name);
      aliases.push(alias);
      if (!typeOnly) allTypes = false;
      if (is(k, ',')) k++;
    }
    return { names, aliases, allTypes: allTypes && names.length > 0, end: k + 1 };
  };

  for (let k = 0; k < t.length; k++) {
    const token = t[k]!;
    if (token.type !== 'name') continue;
    const prev = at(k - 1);
    const memberAccess = prev !== undefined && prev.type === 'punct' && (prev.value === '.' || prev.value === '?.');
    if (memberAccess || is(k + 1, ':') || is(k + 1, '?')) continue; // a property named import or export

    if (token.value === 'import') {
      if (is(k + 1, '.')) continue; // import.meta
      if (is(k + 1, '(')) {
        const spec = at(k + 2);
        if (spec?.type !== 'string' || !is(k + 3, ')')) continue; // a method named import, or a computed specifier
        // `typeof import('x')`, and `import('x').Name` (a promise has no such property): a type
        const qualified = is(k + 4, '.') && at(k + 5)?.type === 'name' && !['then', 'catch', 'finally'].includes(at(k + 5)!.value);
        const typeOnly = qualified || (prev !== undefined && prev.type === 'name' && prev.value === 'typeof');
        imports.push({ specifier: spec.value, line: token.line, typeOnly, dynamic: true, names: dynamicNames(t, k) });
        continue;
      }
      // a static import statement
      let k2 = k + 1;
      let typeOnly = false;
      if (is(k2, 'type') && !is(k2 + 1, 'from') && !is(k2 + 1, ',')) {
        typeOnly = true;
        k2++;
      }
      if (at(k2)?.type === 'string') {
        imports.push({ specifier: at(k2)!.value, line: token.line, typeOnly, dynamic: false, names: [] });
        continue;
      }
      const names: string[] = [];
      let namespace = false;
      let braceAllTypes = true;
      let hadBraces = false;
      let hadDefault = false;
      while (k2 < t.length && !is(k2, 'from')) {
        if (is(k2, '{')) {
          const read = readBraces(k2);
          names.push(...read.names);
          braceAllTypes = read.allTypes;
          hadBraces = true;
          k2 = read.end;
        } else if (is(k2, '*')) {
          namespace = true;
          k2 += 3; // * as name
        } else if (is(k2, ',')) k2++;
        else if (at(k2)?.type === 'name') {
          names.push('default');
          hadDefault = true;
          k2++;
        } else break;
      }
      const spec = at(k2 + 1);
      if (!is(k2, 'from') || spec?.type !== 'string') continue; // `import x = require(…)` and the like
      const allTypes = typeOnly || (hadBraces && braceAllTypes && !hadDefault && !namespace);
      imports.push({ specifier: spec.value, line: token.line, typeOnly: allTypes, dynamic: false, names: namespace ? '*' : names });
      k = k2 + 1;
      continue;
    }

    if (token.value === 'export') {
      let k2 = k + 1;
      let typeOnly = false;
      if (is(k2, 'type') && (is(k2 + 1, '{') || is(k2 + 1, '*'))) {
        typeOnly = true;
        k2++;
      }
      if (is(k2, '*')) {
        // export * from 'x'; export * as ns from 'x'
        let exportedAs: string[] | undefined;
        if (is(k2 + 1, 'as')) {
          exportedAs = [at(k2 + 2)!.value];
          k2 += 2;
        }
        const spec = at(k2 + 2);
        if (!is(k2 + 1, 'from') || spec?.type !== 'string') continue;
        if (exportedAs !== undefined) {
          imports.push({ specifier: spec.value, line: token.line, typeOnly, dynamic: false, names: '*' });
          exports.push({ name: exportedAs[0]!, line: token.line });
        } else imports.push({ specifier: spec.value, line: token.line, typeOnly, dynamic: false, names: 're-export-all' });
        continue;
      }
      if (is(k2, '{')) {
        const read = readBraces(k2);
        const spec = at(read.end + 1);
        if (is(read.end, 'from') && spec?.type === 'string') {
          imports.push({
            specifier: spec.value,
            line: token.line,
            typeOnly: typeOnly || read.allTypes,
            dynamic: false,
            names: read.names,
            exportedAs: read.aliases,
          });
        } else for (const alias of read.aliases) exports.push({ name: alias, line: token.line });
        continue;
      }
      if (is(k2, 'default')) {
        exports.push({ name: 'default', line: token.line });
        continue;
      }
      if (is(k2, '=') || is(k2, 'as') || is(k2, 'import')) continue; // export = x; export as namespace x; export import a = b
      while (at(k2)?.type === 'name' && DECLARATION_MODIFIERS.has(at(k2)!.value)) k2++;
      if (is(k2, 'const') && is(k2 + 1, 'enum')) k2++;
      const keyword = at(k2);
      if (keyword === undefined || !DECLARATION_KEYWORDS.has(keyword.value)) continue;
      k2++;
      if (is(k2, '*')) k2++; // function*
      const name = at(k2);
      if (name?.type === 'name') exports.push({ name: name.value, line: token.line });
      else if (is(k2, '{') || is(k2, '[')) {
        // export const { a, b: c } = …: every name bound by the pattern
        const close = is(k2, '{') ? '}' : ']';
        let depth = 0;
        for (let j = k2; j < t.length; j++) {
          if (is(j, '{') || is(j, '[')) depth++;
          else if (is(j, '}') || is(j, ']')) {
            depth--;
            if (depth === 0 && is(j, close)) break;
          } else if (at(j)!.type === 'name' && !is(j + 1, ':') && !is(j - 1, '=') && !is(j, '...')) exports.push({ name: at(j)!.value, line: token.line });
        }
      }
    }
  }
  return { imports, exports };
}

/**
 * The names a dynamic import takes, when its use says them: `(await import('x')).a`,
 * `const { a, b: c } = await import('x')`, `import('x').A` in a type; otherwise all of them.
 */
function dynamicNames(t: Token[], k: number): string[] | '*' {
  const is = (j: number, value: string): boolean => t[j] !== undefined && t[j]!.type !== 'string' && t[j]!.value === value;
  // import ( 'x' ) . Name  — a type reference (or the promise's then, catch, finally)
  if (is(k + 4, '.') && t[k + 5]?.type === 'name') {
    const name = t[k + 5]!.value;
    return name === 'then' || name === 'catch' || name === 'finally' ? '*' : [name];
  }
  // ( await import ( 'x' ) ) . name
  if (is(k - 1, 'await') && is(k - 2, '(') && is(k + 4, ')') && is(k + 5, '.') && t[k + 6]?.type === 'name') return [t[k + 6]!.value];
  // const { a, b: c } = await import('x')
  if (is(k - 1, 'await') && is(k - 2, '=') && is(k - 3, '}')) {
    let j = k - 3;
    let depth = 0;
    const names: string[] = [];
    for (; j >= 0; j--) {
      if (is(j, '}')) depth++;
      else if (is(j, '{')) {
        depth--;
        if (depth === 0) break;
      } else if (depth === 1 && t[j]!.type === 'name' && (is(j - 1, '{') || is(j - 1, ',')) && !is(j - 1, '...')) names.push(t[j]!.value);
    }
    if (j >= 0 && names.length > 0) return names.reverse();
  }
  return '*';
}
