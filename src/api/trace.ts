/**
 * What request traces may show: credentials never reach a log, and a body only by its size and
 * the caller's note (users bodies hold private identifiers, media bodies are large).
 */
import { redactUserinfo } from '../diag/redact.js';
import type { EncodedBody } from './request-body.js';

/** `Authorization: OAuth oauth_consumer_key="<redacted>", ...`: parameter names kept, secrets removed. */
export function redactAuthorization(header: string | undefined): string {
  if (header === undefined) return '';
  const m = /^(\w+)\s+(.*)$/s.exec(header);
  if (m === null) return 'Authorization: <redacted>';
  if (m[1]!.toLowerCase() !== 'oauth') return `Authorization: ${m[1]} <redacted>`;
  const keep = new Set(['oauth_signature_method', 'oauth_version', 'oauth_timestamp']);
  const parts = [...m[2]!.matchAll(/([\w%.~-]+)="([^"]*)"/g)].map(([, k, v]) => `${k}="${keep.has(k!) ? v : '<redacted>'}"`);
  return `Authorization: OAuth ${parts.join(', ')}`;
}

/**
 * A request URL (or any trace text) with the credentials an endpoint URL may carry hidden, as
 * `http://user:***@host/...`: the user name stays, the password goes, like the OAuth header.
 */
export function redactUrl(text: string): string {
  return redactUserinfo(text);
}

/**
 * What a trace line says about a body that is not a form: ` [body 1234 bytes]`, with the caller's
 * note (` [body 1234 bytes: 500 users]`); empty for form bodies and no body.
 */
export function bodyTrace(encoded: EncodedBody, note: string | undefined): string {
  if (encoded.body === undefined || !encoded.paramsInQuery) return '';
  const bytes = typeof encoded.body === 'string' ? Buffer.byteLength(encoded.body, 'utf8') : encoded.body.length;
  return ` [body ${bytes} bytes${note === undefined ? '' : `: ${note}`}]`;
}
