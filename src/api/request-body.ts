/**
 * The body of a request as the client sends it: form parameters (signed), a JSON value or JSON
 * text serialised by the caller (batches, cards, users uploads), or multipart parts (media
 * segments). Neither JSON nor multipart bodies are signed; their requests carry their parameters
 * in the query string, where the signature covers them, as the service verifies it.
 */
import { randomBytes } from 'node:crypto';
import { encodePairs } from './signer.js';

/** One part of a multipart/form-data body: a file when it has a `filename`, else a text field. */
export interface MultipartPart {
  name: string;
  data: Uint8Array | string;
  filename?: string;
  /** Content-Type of a file part (default `application/octet-stream`). */
  contentType?: string;
}

/** The parts of a request that decide its body (`ApiRequest` has them). */
interface BodySource {
  method: string;
  json?: unknown;
  jsonText?: string;
  multipart?: readonly MultipartPart[];
}

/** A request's body as sent, with its Content-Type, and where its parameters go. */
export interface EncodedBody {
  /** Whether the parameters go in the query string (else they are the form body). */
  paramsInQuery: boolean;
  body?: string | Buffer;
  contentType?: string;
}

/** The body of `req` with `pairs` as its parameters. Throws when a request names two kinds of body (a bug). */
export function encodeBody(req: BodySource, pairs: ReadonlyArray<readonly [string, string]>): EncodedBody {
  const kinds = [req.json !== undefined, req.jsonText !== undefined, req.multipart !== undefined].filter(Boolean).length;
  if (kinds > 1) throw new Error('a request has one body: json, jsonText or multipart');
  if (req.json !== undefined) return { paramsInQuery: true, body: JSON.stringify(req.json), contentType: 'application/json' };
  if (req.jsonText !== undefined) return { paramsInQuery: true, body: req.jsonText, contentType: 'application/json' };
  if (req.multipart !== undefined) return { paramsInQuery: true, ...multipartBody(req.multipart) };
  if (req.method === 'GET' || req.method === 'DELETE') return { paramsInQuery: true };
  return { paramsInQuery: false, body: encodePairs(pairs), contentType: 'application/x-www-form-urlencoded' };
}

/** A multipart/form-data body of `parts` (RFC 7578) under a boundary found in none of them. */
function multipartBody(parts: readonly MultipartPart[]): { body: Buffer; contentType: string } {
  const data = parts.map((p) => (typeof p.data === 'string' ? Buffer.from(p.data, 'utf8') : Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength)));
  let boundary: string;
  do {
    boundary = `adsctl-${randomBytes(16).toString('hex')}`;
  } while (data.some((d) => d.includes(boundary)));
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    const file = part.filename === undefined ? '' : `; filename="${quoted(part.filename)}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part.name)}"${file}\r\n\r\n`, 'utf8'), data[i]!, Buffer.from('\r\n'));
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const quoted = (s: string): string => s.replace(/["\r\n\\]/g, '_');
