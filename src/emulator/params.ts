/**
 * Typed reading of request parameters, as the service does it: every parameter is checked against
 * its declared type and limits, all problems are reported together, unknown parameters are refused,
 * and `request.params` echoes the typed values (comma lists as arrays, numbers as numbers, times
 * normalised to `...Z`). Values come from the query string and form body (strings) or from a JSON
 * batch item (JSON types); both are accepted.
 *
 * A name sent more than once (`RepeatedParam`) is a list's values, as official SDKs send lists; a
 * scalar reader refuses it with `Duplicate parameter`, because the service takes no duplicate keys
 * and nothing says which of two values of a scalar would win: a client (or anything appending to
 * a signed URL) must not get one value checked and another applied.
 */
import { formatTime, parseTime } from './clock.js';
import { sameAsCurrent } from './echoed-value.js';
import { WireError, combine, invalidParameter, missingParameter } from './errors.js';
import { RepeatedParam } from './request.js';

type Raw = Record<string, unknown>;

interface Presence {
  required?: boolean;
}

/** Reads and validates the parameters of one request (or one batch item). */
export class ParamReader {
  readonly echo: Record<string, unknown>;
  private readonly raw: Raw;
  private readonly used = new Set<string>();
  private readonly ignored = new Set<string>();
  private readonly errors: WireError[] = [];

  constructor(raw: Raw, pathParams: Record<string, string> = {}) {
    this.raw = raw;
    this.echo = { ...pathParams };
    for (const key of Object.keys(pathParams)) this.used.add(key);
  }

  /** True when the parameter was sent (even empty) and not set aside by `ignoreUnchanged`. */
  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.raw, name) && !this.ignored.has(name);
  }

  /** True when the parameter was sent with an empty value, the service's way to unset a field. */
  isEmpty(name: string): boolean {
    const v = this.raw[name];
    return this.has(name) && (v === '' || v === null);
  }

  /** Records a problem found by the handler itself; reported with the others by `finish`. */
  fail(error: WireError): void {
    this.errors.push(error);
  }

  private take(name: string, opts: Presence, scalar = true): unknown {
    this.used.add(name);
    if (!this.has(name)) {
      if (opts.required === true) this.errors.push(missingParameter(name));
      return undefined;
    }
    const v = this.raw[name];
    if (scalar && v instanceof RepeatedParam) {
      this.errors.push(invalidParameter(name, `Duplicate parameter ${name}`));
      return undefined;
    }
    return v;
  }

  /**
   * Writable attributes whose own rules would refuse the value the record already holds (a
   * default the endpoint does not let clients choose): sent back unchanged, they count as not
   * sent; changed, they are read as usual.
   */
  ignoreUnchanged(names: readonly string[], current: Record<string, unknown> | undefined): void {
    if (current === undefined) return;
    for (const name of names) {
      if (!this.has(name) || !sameAsCurrent(this.raw[name], current[name])) continue;
      this.used.add(name);
      this.ignored.add(name);
    }
  }

  /**
   * Read-only attributes of the record a PUT changes, as clients that send back everything they
   * loaded (the official SDKs' load, change, save) send them: one sent with the value `current`
   * holds is ignored; one sent with another value is refused (400 INVALID_PARAMETER, "X is
   * read-only"). `current` undefined (the record does not exist) ignores them all: the handler's
   * 404 follows.
   */
  readOnly(names: readonly string[], current: Record<string, unknown> | undefined): void {
    for (const name of names) {
      if (!this.has(name)) continue;
      this.used.add(name);
      if (current !== undefined && !sameAsCurrent(this.raw[name], current[name])) {
        this.errors.push(invalidParameter(name, `${name} is read-only`));
      }
    }
  }

  string(name: string, opts: Presence & { max?: number; min?: number; nullable?: boolean } = {}): string | null | undefined {
    const v = this.take(name, opts);
    if (v === undefined) return undefined;
    if ((v === '' || v === null) && opts.nullable === true) {
      this.echo[name] = null;
      return null;
    }
    if (typeof v !== 'string' && typeof v !== 'number') {
      this.errors.push(invalidParameter(name, `Expected String, got ${JSON.stringify(v)} for ${name}`));
      return undefined;
    }
    const s = String(v);
    const min = opts.min ?? (opts.required === true ? 1 : 0);
    if ([...s].length < min) {
      this.errors.push(
        s === '' && opts.required === true
          ? missingParameter(name)
          : invalidParameter(name, `${name} must be at least ${min} characters long`),
      );
      return undefined;
    }
    if (opts.max !== undefined && [...s].length > opts.max) {
      this.errors.push(invalidParameter(name, `${name} must be at most ${opts.max} characters long`));
      return undefined;
    }
    this.echo[name] = s;
    return s;
  }

  /** An integer (int or long); `nullable` lets an empty value mean "unset". */
  int(name: string, opts: Presence & { min?: number; max?: number; nullable?: boolean; kind?: 'Int' | 'Long' } = {}): number | null | undefined {
    const v = this.take(name, opts);
    if (v === undefined) return undefined;
    if ((v === '' || v === null) && opts.nullable === true) {
      this.echo[name] = null;
      return null;
    }
    const kind = opts.kind ?? 'Long';
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isSafeInteger(n)) {
      this.errors.push(invalidParameter(name, `Expected ${kind}, got ${JSON.stringify(v)} for ${name}`));
      return undefined;
    }
    if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) {
      const range = `${opts.min ?? '-inf'} and ${opts.max ?? 'inf'}`;
      this.errors.push(invalidParameter(name, `${name} must be between ${range}, got ${n}`));
      return undefined;
    }
    this.echo[name] = n;
    return n;
  }

  bool(name: string, opts: Presence = {}): boolean | undefined {
    const v = this.take(name, opts);
    if (v === undefined) return undefined;
    const b = v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;
    if (b === undefined) {
      this.errors.push(invalidParameter(name, `Expected Boolean, got ${JSON.stringify(v)} for ${name}`));
      return undefined;
    }
    this.echo[name] = b;
    return b;
  }

  oneOf<T extends string>(name: string, values: readonly T[], opts: Presence & { nullable?: boolean } = {}): T | null | undefined {
    const v = this.take(name, opts);
    if (v === undefined) return undefined;
    if ((v === '' || v === null) && opts.nullable === true) {
      this.echo[name] = null;
      return null;
    }
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
      this.errors.push(invalidParameter(name, `Expected a value in ${values.join(', ')}, got ${JSON.stringify(v)} for ${name}`));
      return undefined;
    }
    this.echo[name] = v;
    return v as T;
  }

  /** A comma-separated list (or repeated keys, or a JSON array) of non-empty strings, at most `max` entries. */
  list(name: string, opts: Presence & { max?: number; pattern?: RegExp; typeName?: string; allowEmpty?: boolean } = {}): string[] | undefined {
    const v = this.take(name, opts, false);
    if (v === undefined) return undefined;
    const items =
      v instanceof RepeatedParam
        ? v.values.flatMap((s) => s.split(','))
        : Array.isArray(v)
          ? v.map((x) => String(x))
          : typeof v === 'string' || typeof v === 'number'
            ? String(v).split(',')
            : undefined;
    if (items === undefined) {
      this.errors.push(invalidParameter(name, `Expected a comma-separated list, got ${JSON.stringify(v)} for ${name}`));
      return undefined;
    }
    const values = items.map((s) => s.trim());
    if (values.length === 1 && values[0] === '' && opts.allowEmpty === true) {
      this.echo[name] = [];
      return [];
    }
    if (values.some((s) => s === '')) {
      this.errors.push(
        values.length === 1 && opts.required === true
          ? missingParameter(name)
          : invalidParameter(name, `A minimum of 1 items must be provided for ${name}`),
      );
      return undefined;
    }
    if (opts.max !== undefined && values.length > opts.max) {
      this.errors.push(invalidParameter(name, `A maximum of ${opts.max} items can be provided for ${name}, got ${values.length}`));
      return undefined;
    }
    const bad = opts.pattern === undefined ? undefined : values.find((s) => !opts.pattern!.test(s));
    if (bad !== undefined) {
      this.errors.push(invalidParameter(name, `Expected ${opts.typeName ?? 'String'}, got ${JSON.stringify(bad)} for ${name}`));
      return undefined;
    }
    this.echo[name] = values;
    return values;
  }

  /** An ISO 8601 time, normalised to the wire form; `nullable` lets an empty value mean "unset". */
  time(name: string, opts: Presence & { nullable?: boolean } = {}): string | null | undefined {
    const v = this.take(name, opts);
    if (v === undefined) return undefined;
    if ((v === '' || v === null) && opts.nullable === true) {
      this.echo[name] = null;
      return null;
    }
    const d = typeof v === 'string' ? parseTime(v) : undefined;
    if (d === undefined) {
      this.errors.push(invalidParameter(name, `Expected time, got ${JSON.stringify(v)} for ${name}`));
      return undefined;
    }
    const t = formatTime(d);
    this.echo[name] = t;
    return t;
  }

  /** Marks a parameter as understood without reading it (a handler reads it in its own way). */
  accept(name: string): unknown {
    return this.take(name, {});
  }

  /**
   * Ends reading: refuses parameters the endpoint does not take and throws every problem found,
   * all in one error response. Parameters named `oauth_*` belong to the signature and are skipped.
   */
  finish(): void {
    for (const key of Object.keys(this.raw)) {
      if (this.used.has(key) || key.startsWith('oauth_')) continue;
      this.errors.push(invalidParameter(key, `setting ${key} is not allowed`));
    }
    if (this.errors.length > 0) throw combine(this.errors);
  }
}
