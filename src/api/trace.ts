/** Redaction for request traces: credentials never reach a log. */
import { redactUserinfo } from '../diag/redact.js';

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
