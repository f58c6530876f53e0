/**
 * The parsed form of an incoming HTTP request: what every later step of the pipeline (faults,
 * authentication, routing, parameters) reads. Query and form pairs keep their order and
 * duplicates, because the OAuth base string needs them exactly as sent.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { WireError } from './errors.js';

/** Which family of base URL a request addressed. */
export type Surface = 'token' | 'ads' | 'sandbox' | 'control' | 'upload';

export interface ParsedRequest {
  method: string;
  /** Scheme and Host header as the client addressed them. */
  scheme: string;
  host: string;
  /** The full path as sent (with the surface prefix), used for signatures. */
  fullPath: string;
  surface: Surface;
  /** The path below the surface prefix, e.g. `/12/accounts/abc/campaigns`. */
  path: string;
  query: Array<[string, string]>;
  /** Pairs of an `application/x-www-form-urlencoded` body; empty otherwise. */
  form: Array<[string, string]>;
  /** The parsed body when it is JSON. */
  json: unknown;
  contentType: string;
  body: Buffer;
  headers: IncomingHttpHeaders;
}

/** Path prefixes of the advertising base URLs; token endpoints live at the root. */
export const ADS_PREFIX = '/ads-api';
export const SANDBOX_PREFIX = '/ads-api-sandbox';
const CONTROL_PREFIX = '/_emulator';
/** Path prefix of the media upload service (`upload_base_url`). */
export const UPLOAD_PREFIX = '/upload';

/** Decodes `application/x-www-form-urlencoded` text into ordered pairs (`+` is a space). */
export function decodeForm(text: string): Array<[string, string]> {
  if (text === '') return [];
  return text.split('&').map((part) => {
    const eq = part.indexOf('=');
    const k = eq < 0 ? part : part.slice(0, eq);
    const v = eq < 0 ? '' : part.slice(eq + 1);
    const dec = (s: string): string => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        throw new WireError(400, [{ code: 'INVALID_PARAMETER', message: `Malformed percent-encoding in ${JSON.stringify(s)}` }]);
      }
    };
    return [dec(k), dec(v)];
  });
}

/**
 * Splits a request target into surface, inner path and query pairs. A query string that is not
 * valid percent-encoding leaves `query` empty and says why in `malformed`, so that the caller can
 * answer in the surface's own error dialect.
 */
export function classify(target: string): { surface: Surface; fullPath: string; path: string; query: Array<[string, string]>; malformed?: string } {
  const q = target.indexOf('?');
  const fullPath = q < 0 ? target : target.slice(0, q);
  let query: Array<[string, string]> = [];
  let malformed: string | undefined;
  try {
    query = q < 0 ? [] : decodeForm(target.slice(q + 1));
  } catch (error) {
    if (!(error instanceof WireError)) throw error;
    malformed = error.items[0]?.message ?? 'Malformed query string';
  }
  const extra = malformed === undefined ? {} : { malformed };
  for (const [prefix, surface] of [
    [SANDBOX_PREFIX, 'sandbox'],
    [ADS_PREFIX, 'ads'],
    [CONTROL_PREFIX, 'control'],
    [UPLOAD_PREFIX, 'upload'],
  ] as const) {
    if (fullPath === prefix || fullPath.startsWith(`${prefix}/`)) {
      return { surface, fullPath, path: fullPath.slice(prefix.length) || '/', query, ...extra };
    }
  }
  return { surface: 'token', fullPath, path: fullPath, query, ...extra };
}

/**
 * A parameter name sent more than once, with its values in the order sent. Official SDKs send a
 * list-valued attribute as repeated keys (`reasons_not_servable=A&reasons_not_servable=B`); list
 * readers take every value, while scalar readers refuse it as a duplicate (see `ParamReader`).
 */
export class RepeatedParam {
  constructor(readonly values: readonly string[]) {}
}

/**
 * The request's parameters as one object (query first, then form body). A name sent twice becomes
 * a `RepeatedParam`, so that only the readers of scalar parameters refuse it.
 */
export function paramObject(req: ParsedRequest): Record<string, string | RepeatedParam> {
  const out: Record<string, string | RepeatedParam> = {};
  for (const [k, v] of [...req.query, ...req.form]) {
    const prior = Object.prototype.hasOwnProperty.call(out, k) ? out[k] : undefined;
    out[k] = prior === undefined ? v : new RepeatedParam([...(prior instanceof RepeatedParam ? prior.values : [prior]), v]);
  }
  return out;
}
