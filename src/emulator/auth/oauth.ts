/**
 * OAuth 1.0a HMAC-SHA1 verification (RFC 5849 §3.4), from the request as it arrived: the base
 * string is built from the URL the client addressed (scheme, Host header, path), the query and
 * form-encoded body parameters, and the `oauth_*` protocol parameters except the signature. An
 * `oauth_body_hash` parameter, when present, is signed like any other and must match the body.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** RFC 3986 percent-encoding: everything but `A-Z a-z 0-9 - . _ ~`, uppercase hex. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The parameters of an `Authorization: OAuth ...` header, decoded; undefined if not that scheme. */
export function parseOAuthHeader(header: string | undefined): Map<string, string> | undefined {
  if (header === undefined) return undefined;
  const m = /^OAuth\s+(.*)$/is.exec(header.trim());
  if (m === null) return undefined;
  const params = new Map<string, string>();
  const re = /([A-Za-z0-9_%.~-]+)\s*=\s*"([^"]*)"/g;
  let part: RegExpExecArray | null;
  while ((part = re.exec(m[1]!)) !== null) {
    try {
      params.set(decodeURIComponent(part[1]!), decodeURIComponent(part[2]!));
    } catch {
      return undefined;
    }
  }
  return params;
}

/** The base string URI: lowercase scheme and host, default ports dropped, no query. */
export function baseUri(scheme: string, host: string, path: string): string {
  const lower = host.toLowerCase();
  const trimmed =
    (scheme === 'http' && lower.endsWith(':80')) || (scheme === 'https' && lower.endsWith(':443'))
      ? lower.slice(0, lower.lastIndexOf(':'))
      : lower;
  return `${scheme.toLowerCase()}://${trimmed}${path}`;
}

/** The signature base string from the method, base URI and every signed name/value pair. */
export function signatureBaseString(method: string, uri: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  const encoded = pairs.map(([k, v]) => [percentEncode(k), percentEncode(v)] as const);
  encoded.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const paramString = encoded.map(([k, v]) => `${k}=${v}`).join('&');
  return `${method.toUpperCase()}&${percentEncode(uri)}&${percentEncode(paramString)}`;
}

/** base64(HMAC-SHA1(key = consumerSecret&tokenSecret, baseString)). */
export function hmacSha1(baseString: string, consumerSecret: string, tokenSecret: string): string {
  return createHmac('sha1', `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`).update(baseString).digest('base64');
}

/** base64(SHA-1(body)), the value of `oauth_body_hash`. */
export function bodyHash(body: Buffer): string {
  return createHash('sha1').update(body).digest('base64');
}

/** Constant-time comparison of two signatures. */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
