/** Redaction for request traces: credentials never reach a log. */

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
